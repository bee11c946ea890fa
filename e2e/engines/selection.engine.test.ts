import { afterEach, describe, expect, it } from 'vitest'
import { launchEngine, parseEngines } from './engines.ts'

/** ENGINES picks the engines; what was asked for and cannot run fails, it is never skipped. */
describe('engine selection', () => {
  const saved = process.env.FIREFOX_PATH
  afterEach(() => {
    if (saved === undefined) delete process.env.FIREFOX_PATH
    else process.env.FIREFOX_PATH = saved
  })

  it('reads ENGINES: both by default, names trimmed and deduplicated, unknown or empty lists refused', () => {
    expect(parseEngines(undefined)).toEqual(['firefox', 'webkit'])
    expect(parseEngines(' Firefox, firefox ')).toEqual(['firefox'])
    expect(parseEngines('webkit,firefox')).toEqual(['webkit', 'firefox'])
    expect(() => parseEngines('firefox,chrome')).toThrow('ENGINES names chrome')
    expect(() => parseEngines(' , ')).toThrow('ENGINES is empty')
  })

  it('a Firefox binary that is missing fails the launch with where it looked and what to do', async () => {
    process.env.FIREFOX_PATH = '/nonexistent/firefox'
    await expect(launchEngine('firefox')).rejects.toThrow(/Firefox not found at \/nonexistent\/firefox: run scripts\/ensure-firefox\.sh/)
  })
})
