// @vitest-environment happy-dom
import { afterEach, expect, test, vi } from 'vitest'
import { type AppConfig, appConfigElementId } from '../sdk/app-config.ts'
import { pageConfig } from './config-read.ts'
import { openServices } from './core.ts'
import { readParams } from './params.ts'
import { memoryEntries } from './storage.ts'

// The provider's server may write the app config into the frame's page (sandbox/services/frame/
// routes.ts): the frame then reads it there, and its first load asks the network nothing before it
// answers the page.

const config = (fields: Partial<AppConfig> = {}) => ({ appId: 'demo', environment: 'development', name: 'Demo', ...fields }) as AppConfig

function writeIntoPage(text: string) {
  const block = document.createElement('script')
  block.type = 'application/json'
  block.id = appConfigElementId
  block.textContent = text
  document.head.append(block)
}

afterEach(() => {
  document.getElementById(appConfigElementId)?.remove()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

test("the page's copy is read when it is this app's and environment's", () => {
  writeIntoPage(JSON.stringify(config()))
  expect(pageConfig({ appId: 'demo', env: 'sandbox' })).toEqual(config())
  // Another app's, or another environment's, is not this frame's: the network is asked instead.
  expect(pageConfig({ appId: 'other', env: 'sandbox' })).toBeUndefined()
  expect(pageConfig({ appId: 'demo', env: 'production' })).toBeUndefined()
})

test('no copy, an empty one or a malformed one: none, never a throw', () => {
  expect(pageConfig({ appId: 'demo', env: 'sandbox' })).toBeUndefined()
  for (const text of ['', '{', 'null', '"demo"', '[]']) {
    writeIntoPage(text)
    expect(pageConfig({ appId: 'demo', env: 'sandbox' }), text).toBeUndefined()
    document.getElementById(appConfigElementId)?.remove()
  }
})

test("with the page's copy the frame starts on it and asks the network for no app config", async () => {
  writeIntoPage(JSON.stringify(config({ name: 'From the page', allowedOrigins: ['https://host.example'] })))
  const fetch = vi.fn(async () => Response.json({ data: config({ name: 'From the network' }) }))
  vi.stubGlobal('fetch', fetch)
  const params = readParams(new URL('https://frame.example/widget/?appId=demo&env=sandbox'))
  const services = await openServices(params, { probed: Promise.resolve(memoryEntries()) }, pageConfig(params))
  expect(services?.config.name).toBe('From the page')
  expect(fetch).not.toHaveBeenCalled()
})

test("without it, or with another app's, the network is asked as before", async () => {
  writeIntoPage(JSON.stringify(config({ appId: 'other', name: 'Not this one' })))
  const fetch = vi.fn(async () => Response.json({ data: config({ name: 'From the network' }) }))
  vi.stubGlobal('fetch', fetch)
  const params = readParams(new URL('https://frame.example/widget/?appId=demo&env=sandbox'))
  const services = await openServices(params, { probed: Promise.resolve(memoryEntries()) }, pageConfig(params))
  expect(services?.config.name).toBe('From the network')
  expect(fetch).toHaveBeenCalledTimes(1)
})
