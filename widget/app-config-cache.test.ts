import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { appConfigStaleMs, createSessionStore } from './session.ts'
import { memoryEntries } from './storage.ts'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

test('the app config is kept for one hour per app and environment, then fetched again', async () => {
  const entries = memoryEntries()
  const demo = createSessionStore('demo', 'sandbox', entries)
  const other = createSessionStore('other', 'sandbox', entries)
  const production = createSessionStore('demo', 'production', entries)
  expect(await demo.loadAppConfig()).toBeUndefined()
  await demo.saveAppConfig({ isAAEnabled: true })
  expect(await demo.loadAppConfig()).toEqual({ isAAEnabled: true })
  expect(await other.loadAppConfig()).toBeUndefined()
  expect(await production.loadAppConfig()).toBeUndefined()
  vi.advanceTimersByTime(appConfigStaleMs - 1)
  expect(await demo.loadAppConfig()).toEqual({ isAAEnabled: true })
  vi.advanceTimersByTime(1)
  expect(await demo.loadAppConfig()).toBeUndefined()
  // A copy from the future (the clock went back) or not an object is not used either.
  await entries.set('appConfig:demo:sandbox', { config: { x: 1 }, fetchedAt: Date.now() + 60_000 })
  expect(await demo.loadAppConfig()).toBeUndefined()
  await entries.set('appConfig:demo:sandbox', { config: 'nope', fetchedAt: Date.now() })
  expect(await demo.loadAppConfig()).toBeUndefined()
})
