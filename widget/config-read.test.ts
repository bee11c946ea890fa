import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { AppConfig } from '../sdk/app-config.ts'
import { configStoredRecently, readConfig } from './config-read.ts'
import { appConfigStaleMs, createSessionStore } from './session.ts'
import { memoryEntries } from './storage.ts'

const app = { appId: 'demo', env: 'sandbox' } as const
const config = (name: string) => ({ appId: 'demo', name }) as unknown as AppConfig

/** This origin's localStorage, as a frame sees it (Node has none). */
function fakeLocalStorage() {
  const items = new Map<string, string>()
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, String(value)),
    removeItem: (key: string) => void items.delete(key),
  }
}

beforeEach(() => vi.stubGlobal('localStorage', fakeLocalStorage()))
afterEach(async () => {
  // A test's copy is written in a task of its own: let it land in this test's storage, not the next one's.
  vi.useRealTimers()
  await new Promise((resolve) => setTimeout(resolve, 10))
  vi.unstubAllGlobals()
})

describe('the app config on a first load and after', () => {
  test('first load: no mark, so the network is asked at once; its answer is stored and marked', async () => {
    expect(configStoredRecently(app)).toBe(false)
    const store = createSessionStore('demo', 'sandbox', memoryEntries())
    const fetch = vi.fn(async () => config('late'))
    const got = await readConfig({ store, persistent: true, fetched: Promise.resolve(config('early')), fetch, params: app })
    expect(got.name).toBe('early')
    expect(fetch).not.toHaveBeenCalled()
    // Stored in the background (a task of its own), then marked.
    await vi.waitFor(() => expect(configStoredRecently(app)).toBe(true))
    expect(((await store.loadAppConfig()) as AppConfig).name).toBe('early')
  })

  test('within the hour: the mark says a copy is stored, and the stored copy is read, not the network', async () => {
    const store = createSessionStore('demo', 'sandbox', memoryEntries())
    await readConfig({ store, persistent: true, fetched: Promise.resolve(config('first')), fetch: async () => config('x'), params: app })
    await vi.waitFor(() => expect(configStoredRecently(app)).toBe(true))
    const fetch = vi.fn(async () => config('again'))
    const fetched = configStoredRecently(app) ? undefined : fetch()
    const got = await readConfig({ store, persistent: true, fetched, fetch, params: app })
    expect(got.name).toBe('first')
    expect(fetch).not.toHaveBeenCalled()
  })

  test('an hour later the mark is stale: the network is asked again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const store = createSessionStore('demo', 'sandbox', memoryEntries())
    await readConfig({ store, persistent: true, fetched: Promise.resolve(config('first')), fetch: async () => config('x'), params: app })
    vi.setSystemTime(Date.now() + appConfigStaleMs)
    expect(configStoredRecently(app)).toBe(false)
  })

  test('a mark whose stored copy is gone (storage cleared apart): fetched after all, never a frame without config', async () => {
    const store = createSessionStore('demo', 'sandbox', memoryEntries())
    localStorage.setItem('wallet-kit:appConfig:demo:sandbox', String(Date.now()))
    expect(configStoredRecently(app)).toBe(true)
    const got = await readConfig({ store, persistent: true, fetched: undefined, fetch: async () => config('fetched'), params: app })
    expect(got.name).toBe('fetched')
  })

  test('the early fetch failed (offline): a stored copy still serves; with none, the error stands', async () => {
    const store = createSessionStore('demo', 'sandbox', memoryEntries())
    await store.saveAppConfig(config('stored'))
    const offline = Promise.reject(new Error('offline'))
    offline.catch(() => {})
    expect((await readConfig({ store, persistent: true, fetched: offline, fetch: async () => config('x'), params: app })).name).toBe('stored')
    const empty = createSessionStore('demo', 'sandbox', memoryEntries())
    await expect(readConfig({ store: empty, persistent: true, fetched: offline, fetch: async () => config('x'), params: app })).rejects.toThrow('offline')
  })

  test('no mark but a fresh stored copy (localStorage blocked, IndexedDB not) and a network that never answers: the stored copy serves', async () => {
    const store = createSessionStore('demo', 'sandbox', memoryEntries())
    await store.saveAppConfig(config('stored'))
    const never = new Promise<AppConfig>(() => {})
    const got = await Promise.race([
      readConfig({ store, persistent: true, fetched: never, fetch: async () => config('x'), params: app }),
      new Promise<string>((resolve) => setTimeout(() => resolve('held'), 1000)),
    ])
    expect(got).toMatchObject({ name: 'stored' })
  })

  test('a store in memory (storage blocked) leaves no mark: the next load asks the network at once', async () => {
    const store = createSessionStore('demo', 'sandbox', memoryEntries())
    await readConfig({ store, persistent: false, fetched: Promise.resolve(config('c')), fetch: async () => config('x'), params: app })
    // Once the copy is written (in memory), still no mark.
    await vi.waitFor(async () => expect(await store.loadAppConfig()).toBeTruthy())
    expect(configStoredRecently(app)).toBe(false)
  })

  test('no localStorage at all (third-party storage blocked): no mark, no throw', async () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError')
      },
      setItem: () => {
        throw new DOMException('denied', 'SecurityError')
      },
    })
    expect(configStoredRecently(app)).toBe(false)
    const store = createSessionStore('demo', 'sandbox', memoryEntries())
    expect((await readConfig({ store, persistent: true, fetched: Promise.resolve(config('c')), fetch: async () => config('x'), params: app })).name).toBe('c')
  })

  test('the answer does not wait for the stored copy to be written (a slow first write holds nothing)', async () => {
    const store = createSessionStore('demo', 'sandbox', memoryEntries())
    let written: (() => void) | undefined
    store.saveAppConfig = () => new Promise<void>((resolve) => (written = resolve))
    const got = await readConfig({ store, persistent: true, fetched: Promise.resolve(config('c')), fetch: async () => config('x'), params: app })
    expect(got.name).toBe('c')
    await vi.waitFor(() => expect(written).toBeDefined())
    // Marked only once the copy is stored: a mark with no copy would send the next load to storage for nothing.
    expect(configStoredRecently(app)).toBe(false)
    written!()
    await vi.waitFor(() => expect(configStoredRecently(app)).toBe(true))
  })

  test('a fresh copy is written from a task of its own, after the steps that follow the answer (where the frame reads the session)', async () => {
    const store = createSessionStore('demo', 'sandbox', memoryEntries())
    const order: string[] = []
    const save = store.saveAppConfig
    store.saveAppConfig = (copy) => {
      order.push('config written')
      return save(copy)
    }
    const got = await readConfig({ store, persistent: true, fetched: Promise.resolve(config('c')), fetch: async () => config('x'), params: app })
    // What the frame does right after the answer, its session read among it, in the same task.
    order.push('session read')
    for (let i = 0; i < 10; i++) await Promise.resolve()
    expect(order).toEqual(['session read'])
    await vi.waitFor(() => expect(order).toEqual(['session read', 'config written']))
    expect(got.name).toBe('c')
    expect(((await store.loadAppConfig()) as AppConfig).name).toBe('c')
  })

  test('marks are per app and environment', async () => {
    const store = createSessionStore('demo', 'sandbox', memoryEntries())
    await readConfig({ store, persistent: true, fetched: Promise.resolve(config('c')), fetch: async () => config('x'), params: app })
    await vi.waitFor(() => expect(configStoredRecently(app)).toBe(true))
    expect(configStoredRecently({ appId: 'other', env: 'sandbox' })).toBe(false)
    expect(configStoredRecently({ appId: 'demo', env: 'production' })).toBe(false)
  })
})
