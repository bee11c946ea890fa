import { afterEach, describe, expect, test, vi } from 'vitest'
import { createSessionStore, openSessionStore, sessionLifetimeMs, type Session, type SessionStore } from './session.ts'
import { memoryEntries, type Entries } from './storage.ts'
import { createSessionOwner } from './session-owner.ts'
import { alice } from './wallet.fixture.ts'

/** A Web Lock stand-in: callbacks for one name run one at a time, in order. */
function locks() {
  let tail: Promise<unknown> = Promise.resolve()
  return {
    request: <T>(_name: string, fn: () => Promise<T>) => {
      const next = tail.then(fn)
      tail = next.catch(() => {})
      return next
    },
  } as Pick<LockManager, 'request'>
}

/** Entries that count every write (one IndexedDB database shared by the tabs of a test). */
function counted(initial: Record<string, unknown> = {}) {
  const inner = memoryEntries(initial)
  const writes: string[] = []
  const entries: Entries = {
    get: inner.get,
    set: (key, value) => {
      writes.push(key)
      return inner.set(key, value)
    },
    del: (key) => {
      writes.push(`-${key}`)
      return inner.del(key)
    },
    update: (key, fn) => {
      writes.push(key)
      return inner.update(key, fn)
    },
  }
  return { entries, writes, stored: () => (inner.peek('session:demo:sandbox') ?? null) as Session | null }
}

const storedAlice = (fields: Partial<Session> = {}) => ({ 'session:demo:sandbox': { ...alice, expiresAt: Date.now() + sessionLifetimeMs, ...fields } })

let channels = 0
/** Two tabs of one app: one store, a real BroadcastChannel between them, one lock manager. */
function twoTabs(initial: Record<string, unknown>) {
  const shared = counted(initial)
  const lock = locks()
  const name = `test-${++channels}-${Math.random()}`
  const tab = () =>
    createSessionOwner({
      appId: 'demo',
      env: 'sandbox',
      store: createSessionStore('demo', 'sandbox', shared.entries),
      persistent: true,
      chainId: () => 31337,
      name,
      locks: lock,
    })
  const tabs = [tab(), tab()] as const
  return {
    ...shared,
    tabs,
    close: () => {
      for (const t of tabs) t.close()
    },
  }
}

const settle = () => new Promise((r) => setTimeout(r, 20))

afterEach(() => vi.restoreAllMocks())

describe('the session store never hangs', () => {
  test('IndexedDB throwing (third-party storage blocked): the session is kept in memory, said once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const blocked = () => {
      throw new DOMException('The user denied permission to access the database.', 'SecurityError')
    }
    const { store, persistent } = await openSessionStore('demo', 'sandbox', { entries: blocked })
    expect(persistent).toBe(false)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]![0])).toMatch(/does not let the wallet frame store anything.*until this page is closed/)
    const owner = createSessionOwner({ appId: 'demo', env: 'sandbox', store, persistent, chainId: () => 31338 })
    owner.tokens.set({ walletToken: 'w', refreshToken: 'r', address: alice.address })
    await owner.settled()
    expect(await store.load()).toMatchObject({ token: 'w', refreshToken: 'r', address: alice.address, chainId: 31338 })
  })

  test('IndexedDB that never answers: memory after the probe time, not a wait without end', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const never = new Promise<never>(() => {})
    const hanging = (): Entries => ({ get: () => never, set: () => never, del: () => never, update: () => never })
    expect((await openSessionStore('demo', 'sandbox', { entries: hanging, probeMs: 30 })).persistent).toBe(false)
    const writeOnly = (): Entries => ({ ...memoryEntries(), get: () => Promise.reject(new Error('read refused')) })
    expect((await openSessionStore('demo', 'sandbox', { entries: writeOnly })).persistent).toBe(false)
    expect((await openSessionStore('demo', 'sandbox', { entries: () => memoryEntries() })).persistent).toBe(true)
  })

  test("a probe the frame's entry began early is the one waited for, on the same terms", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const refused = Promise.reject(new DOMException('The user denied permission to access the database.', 'SecurityError'))
    refused.catch(() => {})
    expect((await openSessionStore('demo', 'sandbox', { probed: refused })).persistent).toBe(false)
    expect((await openSessionStore('demo', 'sandbox', { probed: new Promise<never>(() => {}), probeMs: 30 })).persistent).toBe(false)
    const entries = memoryEntries()
    const { store, persistent } = await openSessionStore('demo', 'sandbox', { probed: Promise.resolve(entries) })
    expect(persistent).toBe(true)
    await store.saveAppConfig({ name: 'kept' })
    expect(await entries.get('appConfig:demo:sandbox')).toMatchObject({ config: { name: 'kept' } })
  })

  test('a store that fails mid-session loses nothing held: the tokens stay, the next write still runs', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { entries, stored } = counted()
    let broken = true
    const flaky: Entries = { ...entries, set: (k, v) => (broken ? Promise.reject(new Error('quota')) : entries.set(k, v)) }
    const owner = createSessionOwner({
      appId: 'demo',
      env: 'sandbox',
      store: createSessionStore('demo', 'sandbox', flaky),
      persistent: false,
      chainId: () => 31337,
    })
    owner.tokens.set({ walletToken: 'w', refreshToken: 'r', address: alice.address })
    await owner.settled()
    expect(owner.tokens.get()).toMatchObject({ walletToken: 'w', refreshToken: 'r' })
    expect(owner.current()).toEqual({ address: alice.address, chainId: 31337 })
    broken = false
    await owner.setChain(31338)
    expect(stored()).toBeNull() // nothing to patch: the login was never stored
    expect(owner.current()?.chainId).toBe(31338)
  })
})

describe('one owner: tokens are written in one place', () => {
  test('a login (the sdk setting the tokens) is written once and announced once; a ramp token is not a write', async () => {
    const { entries, writes, stored } = counted()
    const sent: unknown[] = []
    const channel = { postMessage: (m: unknown) => sent.push(m), close() {} } as unknown as BroadcastChannel
    const owner = createSessionOwner({
      appId: 'demo',
      env: 'sandbox',
      store: createSessionStore('demo', 'sandbox', entries),
      persistent: true,
      channel,
      locks: undefined,
      chainId: () => 31337,
    })
    const changes: unknown[] = []
    owner.subscribe((change) => changes.push(change))
    owner.tokens.set({ walletToken: 'w', refreshToken: 'r', address: alice.address })
    owner.tokens.set({ rampAccessToken: 'ramp' })
    await owner.settled()
    expect(writes).toEqual(['session:demo:sandbox'])
    expect(stored()).toMatchObject({ token: 'w', refreshToken: 'r', address: alice.address, chainId: 31337, appId: 'demo', env: 'sandbox' })
    expect(sent).toHaveLength(1)
    expect(changes).toEqual([{ session: { address: alice.address, chainId: 31337 }, source: 'login' }])
    // What the widget may see has no token in it.
    expect(JSON.stringify(owner.current())).not.toMatch(/"w"|"r"/)
  })

  test('the sdk clearing the tokens (a refresh the service refused, a logout) ends the session: store cleared, told once', async () => {
    const { entries, stored } = counted(storedAlice())
    const owner = createSessionOwner({
      appId: 'demo',
      env: 'sandbox',
      store: createSessionStore('demo', 'sandbox', entries),
      persistent: false,
      chainId: () => 31337,
    })
    await owner.restore()
    const changes: unknown[] = []
    owner.subscribe((change) => changes.push(change))
    owner.tokens.clear(['walletToken', 'refreshToken', 'address'])
    await owner.end()
    expect(stored()).toBeNull()
    expect(changes).toEqual([{ session: null, source: 'ended' }])
  })
})

describe('the restore and another tab at once', () => {
  test('another tab logging out, or rotating the tokens, while the restore reads wins over the older copy it read', async () => {
    for (const next of ['logout', 'rotation'] as const) {
      const name = `early-${++channels}-${Math.random()}`
      const shared = counted(storedAlice({ token: 'w1', refreshToken: 'r1' }))
      // The late tab's read began before the other tab wrote: it answers with the older copy.
      const copy = await createSessionStore('demo', 'sandbox', shared.entries).load()
      let answer = () => {}
      const load = vi.fn(() => new Promise<typeof copy>((resolve) => (answer = () => resolve(copy))))
      const tab = (store: SessionStore) =>
        createSessionOwner({ appId: 'demo', env: 'sandbox', store, persistent: true, chainId: () => 31337, name, locks: locks() })
      const late = tab({ ...createSessionStore('demo', 'sandbox', shared.entries), load })
      const other = tab(createSessionStore('demo', 'sandbox', shared.entries))
      await other.restore()
      const restoring = late.restore()
      if (next === 'rotation') await other.coordinateRefresh('r1', async () => ({ walletToken: 'w2', refreshToken: 'r2' }))
      else await other.end()
      await settle()
      answer()
      const restored = await restoring
      expect(load).toHaveBeenCalledOnce()
      if (next === 'rotation') {
        expect(restored).toMatchObject({ address: alice.address })
        expect(late.tokens.get()).toMatchObject({ walletToken: 'w2', refreshToken: 'r2' })
      } else {
        expect(restored).toBeNull()
        expect(late.tokens.get().refreshToken).toBeUndefined()
      }
      late.close()
      other.close()
    }
  })

  test("a message heard meanwhile that is not this app's session (another app's, another env's, malformed) does not stop the restore", async () => {
    const name = `hostile-${++channels}-${Math.random()}`
    const shared = counted(storedAlice({ token: 'w1', refreshToken: 'r1' }))
    const copy = await createSessionStore('demo', 'sandbox', shared.entries).load()
    let answer = () => {}
    const load = () => new Promise<typeof copy>((resolve) => (answer = () => resolve(copy)))
    const store = { ...createSessionStore('demo', 'sandbox', shared.entries), load }
    const late = createSessionOwner({ appId: 'demo', env: 'sandbox', store, persistent: true, chainId: () => 31337, name, locks: locks() })
    const restoring = late.restore()
    // Any page of the provider's origin may write on the channel: what it says is data, checked first.
    const hostile = new BroadcastChannel(name)
    for (const session of [{ ...copy!, appId: 'other' }, { ...copy!, env: 'live' }, { token: 'w9' }, undefined]) hostile.postMessage({ session })
    await settle()
    answer()
    expect(await restoring).toMatchObject({ address: alice.address })
    expect(late.tokens.get()).toMatchObject({ walletToken: 'w1', refreshToken: 'r1' })
    for (const open of [hostile, late]) open.close()
  })
})

describe('refreshes across tabs', () => {
  test('two tabs holding the same refresh token at once: it is spent once, both hold the new pair, stored once', async () => {
    const { tabs, stored, writes, close } = twoTabs(storedAlice({ token: 'w1', refreshToken: 'r1' }))
    await Promise.all(tabs.map((t) => t.restore()))
    let spent = 0
    const refresh = async () => {
      spent++
      await new Promise((r) => setTimeout(r, 20))
      return { walletToken: `w${spent + 1}`, refreshToken: `r${spent + 1}` }
    }
    const [a, b] = await Promise.all(tabs.map((t) => t.coordinateRefresh('r1', refresh)))
    expect(spent).toBe(1)
    expect(a).toEqual({ walletToken: 'w2', refreshToken: 'r2' })
    expect(b).toEqual(a)
    expect(stored()).toMatchObject({ token: 'w2', refreshToken: 'r2' })
    expect(writes).toEqual(['session:demo:sandbox'])
    await settle()
    for (const t of tabs) expect(t.tokens.get()).toMatchObject({ walletToken: 'w2', refreshToken: 'r2' })
    close()
  })

  test('a token another tab already rotated is not spent again: the stored pair is used', async () => {
    const { tabs, close } = twoTabs(storedAlice({ token: 'w2', refreshToken: 'r2' }))
    await tabs[0].restore()
    const refresh = vi.fn(async () => ({ walletToken: 'w3', refreshToken: 'r3' }))
    expect(await tabs[0].coordinateRefresh('r1', refresh)).toEqual({ walletToken: 'w2', refreshToken: 'r2' })
    expect(refresh).not.toHaveBeenCalled()
    close()
  })

  test("another account's stored session is neither taken nor overwritten", async () => {
    const bob = '0x000000000000000000000000000000000000b0b0'
    const { entries, stored } = counted()
    const owner = createSessionOwner({
      appId: 'demo',
      env: 'sandbox',
      store: createSessionStore('demo', 'sandbox', entries),
      persistent: false,
      chainId: () => 31337,
    })
    owner.tokens.set({ walletToken: 'w1', refreshToken: 'r1', address: alice.address })
    await owner.settled()
    // Meanwhile the stored session became bob's (another tab's login this tab has not heard of).
    await entries.set('session:demo:sandbox', { ...alice, address: bob, refreshToken: 'bob', expiresAt: Date.now() + 1000 })
    const refresh = vi.fn(async () => ({ walletToken: 'w9', refreshToken: 'r9' }))
    expect(await owner.coordinateRefresh('r1', refresh)).toEqual({ walletToken: 'w9', refreshToken: 'r9' })
    expect(stored()).toMatchObject({ address: bob, refreshToken: 'bob' })
  })

  test('a browser that refuses the Web Lock (storage blocked) still refreshes, without it', async () => {
    const { entries } = counted(storedAlice({ token: 'w1', refreshToken: 'r1' }))
    const refused = { request: () => Promise.reject(new DOMException('The request was denied.', 'SecurityError')) } as unknown as Pick<LockManager, 'request'>
    const owner = createSessionOwner({
      appId: 'demo',
      env: 'sandbox',
      store: createSessionStore('demo', 'sandbox', entries),
      persistent: true,
      channel: undefined,
      locks: refused,
      chainId: () => 31337,
    })
    await owner.restore()
    expect(await owner.coordinateRefresh('r1', async () => ({ walletToken: 'w2', refreshToken: 'r2' }))).toEqual({ walletToken: 'w2', refreshToken: 'r2' })
    owner.close()
  })
})
