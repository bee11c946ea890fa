import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { alice, testWallet } from './wallet.fixture.ts'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('wallet state machine', () => {
  test('eth_requestAccounts opens connect and resolves on login; the page resets 50 ms after closing', async () => {
    const { wallet, events, logIn } = testWallet()
    await wallet.restore()
    const accounts = wallet.requestAccounts()
    expect(wallet.ui.get().view).toBe('connect')
    wallet.navigate('otp')
    expect(wallet.ui.get()).toMatchObject({ page: 'otp', history: ['home'], direction: 'forward' })
    const session = await logIn({ token: 't', refreshToken: 'r', address: alice.address })
    wallet.announce(session)
    expect(await accounts).toEqual([alice.address])
    expect(events).toEqual([
      ['connect', { chainId: '0x7a69' }],
      ['accountsChanged', [alice.address]],
    ])
    wallet.close()
    expect(wallet.ui.get().page).toBe('otp')
    await vi.advanceTimersByTimeAsync(50)
    expect(wallet.ui.get()).toMatchObject({ page: 'home', history: [] })
  })

  test('back pops the history; an empty history returns home', () => {
    const { wallet } = testWallet()
    wallet.navigate('wallet')
    wallet.navigate('otp')
    wallet.back()
    expect(wallet.ui.get()).toMatchObject({ page: 'wallet', direction: 'back' })
    wallet.back()
    wallet.back()
    expect(wallet.ui.get()).toMatchObject({ page: 'home', history: [] })
  })

  test('closing the connect modal without logging in rejects waiting requests with 4001', async () => {
    const { wallet } = testWallet()
    const accounts = wallet.requestAccounts().catch((e: { code: number }) => e.code)
    wallet.close()
    expect(await accounts).toBe(4001)
  })

  test('closing the wallet-created page without Done still connects the new user', async () => {
    const { wallet, events, logIn } = testWallet()
    const accounts = wallet.requestAccounts()
    await logIn({ token: 't', refreshToken: 'r', address: alice.address })
    wallet.navigate('wallet-created')
    wallet.close()
    expect(await accounts).toEqual([alice.address])
    expect(events.map(([e]) => e)).toEqual(['connect', 'accountsChanged'])
  })

  test('a close with nothing waiting leaves the connection alone; a later login or request is still answered by the next close', async () => {
    const { wallet, events, logIn } = testWallet({ session: alice })
    await wallet.restore()
    // Connected and announced, nobody waiting: this close (a signature's modal, say) has nothing for the connection.
    wallet.open('profile')
    wallet.close()
    expect(events).toEqual([])
    // A new login here is announced when its modal closes, as before.
    const bob = { token: 'b', refreshToken: 'rb', address: '0x0000000000000000000000000000000000000B0b' as const }
    wallet.open('connect')
    await logIn(bob)
    expect(events).toEqual([])
    wallet.close()
    expect(events).toEqual([
      ['connect', { chainId: '0x7a69' }],
      ['accountsChanged', [bob.address]],
    ])
    // And once this page is forgotten, a request that waits on the connect modal is answered 4001 by its close.
    await wallet.setSite(false)
    wallet.close()
    const accounts = wallet.requestAccounts().catch((e: { code: number }) => e.code)
    expect(wallet.ui.get().view).toBe('connect')
    wallet.close()
    expect(await accounts).toBe(4001)
  })

  test('switching chain: configured chains only (4902 otherwise), kept in the session, chainChanged emitted', async () => {
    const { wallet, events, stored } = testWallet({ session: alice })
    await wallet.restore()
    await expect(wallet.switchChain(1)).rejects.toMatchObject({ code: 4902 })
    expect(wallet.chainId()).toBe(31337)
    await wallet.switchChain(31338)
    expect(wallet.chainId()).toBe(31338)
    expect(stored()?.chainId).toBe(31338)
    expect(events).toEqual([['chainChanged', '0x7a6a']])
    await wallet.switchChain(31338)
    expect(events).toHaveLength(1)
  })

  test('disconnect clears the stored session and tells the host', async () => {
    const { wallet, events, stored } = testWallet({ session: alice })
    await wallet.restore()
    await wallet.disconnect()
    expect(stored()).toBeNull()
    expect(wallet.ui.get().session).toBeNull()
    expect(events).toEqual([
      ['accountsChanged', []],
      ['disconnect', { code: 4900, message: 'Disconnected' }],
    ])
  })
})

test('the account state (permission) is kept across a reload of the frame, and dropped on disconnect', async () => {
  const page = 'http://localhost:8787/permission/accept?token=t'
  const reloaded = testWallet({ session: alice, account: { isPermissionGranted: false, acceptPermissionPage: page } })
  await reloaded.wallet.restore()
  expect(reloaded.wallet.ui.get().account).toEqual({ isPermissionGranted: false, acceptPermissionPage: page })
  const junk = testWallet({ session: alice, account: { isPermissionGranted: 'no' } })
  await junk.wallet.restore()
  expect(junk.wallet.ui.get().account.isPermissionGranted).toBe(true)

  const first = testWallet({ session: alice })
  await first.wallet.restore()
  // As a 407 writes it (confirmation.ts), through the one module that owns the account state.
  first.wallet.requirePermission('http://localhost:8787/permission/accept?token=t')
  expect(first.account()).toEqual({ isPermissionGranted: false, acceptPermissionPage: 'http://localhost:8787/permission/accept?token=t' })
  await first.wallet.disconnect()
  expect(first.account()).toBeUndefined()
})

test('a session another tab writes while the frame restores wins, and the account state is still kept from then on', async () => {
  const { wallet, remote, account } = testWallet()
  const restoring = wallet.restore()
  remote({ ...alice, expiresAt: Date.now() + 1000 })
  await restoring
  expect(wallet.ui.get().session).toEqual({ address: alice.address })
  wallet.requirePermission('http://localhost:8787/permission/accept?token=t')
  expect(account()).toEqual({ isPermissionGranted: false, acceptPermissionPage: 'http://localhost:8787/permission/accept?token=t' })
})

test('a session written by another tab is adopted: tokens, account and chain follow, without writing back', async () => {
  const { wallet, owner, events, stored, remote, broadcasts } = testWallet()
  await wallet.restore()
  remote({ ...alice, chainId: 31338, expiresAt: Date.now() + 1000 })
  expect(wallet.ui.get().session).toEqual({ address: alice.address })
  expect(owner.tokens.get()).toMatchObject({ walletToken: alice.token, refreshToken: alice.refreshToken })
  expect(wallet.chainId()).toBe(31338)
  expect(stored()).toBeNull()
  expect(events).toEqual([
    ['accountsChanged', [alice.address]],
    ['chainChanged', '0x7a6a'],
  ])
  // A refreshed token for the same account changes nothing the host sees.
  remote({ ...alice, token: 'newer', chainId: 31338, expiresAt: Date.now() + 1000 })
  expect(owner.tokens.get().walletToken).toBe('newer')
  expect(events).toHaveLength(2)
  // Another app's session is ignored; a logout in another tab logs out here too.
  remote({ ...alice, appId: 'other', token: 'x', expiresAt: 0 })
  expect(owner.tokens.get().walletToken).toBe('newer')
  remote(null)
  expect(wallet.ui.get().session).toBeNull()
  expect(owner.tokens.get().walletToken).toBeUndefined()
  expect(broadcasts).toEqual([])
  expect(events.slice(2)).toEqual([
    ['accountsChanged', []],
    ['disconnect', { code: 4900, message: 'Disconnected' }],
  ])
})

describe('disconnect revokes the session on the service', () => {
  test('logout runs with the session still stored, then the session is cleared; concurrent disconnects log out once', async () => {
    const seen: (string | undefined)[] = []
    const t = testWallet({ session: alice, logout: async (s) => void seen.push(`${s.walletToken}:${t.stored()?.token}`) })
    await t.wallet.restore()
    await Promise.all([t.wallet.disconnect(), t.wallet.disconnect()])
    expect(seen).toEqual(['wallet-token:wallet-token'])
    expect(t.stored()).toBeNull()
    expect(t.events.filter(([e]) => e === 'disconnect')).toHaveLength(1)
  })

  test('a failing logout (network down) still ends the session here', async () => {
    const t = testWallet({ session: alice, logout: () => Promise.reject(new TypeError('Failed to fetch')) })
    await t.wallet.restore()
    await t.wallet.disconnect()
    expect(t.stored()).toBeNull()
    expect(t.wallet.ui.get().session).toBeNull()
    expect(t.events.map(([e]) => e)).toEqual(['accountsChanged', 'disconnect'])
  })

  test('nobody connected: no logout call', async () => {
    let calls = 0
    const t = testWallet({ logout: async () => void calls++ })
    await t.wallet.restore()
    await t.wallet.disconnect()
    expect(calls).toBe(0)
  })
})
