import { describe, expect, test } from 'vitest'
import { connectSite } from '../connect/SiteConnect.tsx'
import { sessionLifetimeMs } from '../session.ts'
import { alice } from '../wallet.fixture.ts'
import { testContext } from './context.fixture.ts'

/** The page these tests serve (wallet.fixture.ts) and another allowed origin of the same app. */
const here = 'http://127.0.0.1:5173'
const other = 'http://127.0.0.1:5174'
/** Alice signed in on the other origin only: the session is in the frame's store, this site never connected. */
const elsewhere = { ...alice, sites: [other] }
const tick = () => new Promise((r) => setTimeout(r, 0))
const signing = [
  ['personal_sign', ['0x68656c6c6f', alice.address]],
  ['eth_sendTransaction', [{ to: alice.address, value: '0x1' }]],
  ['eth_signTransaction', [{ to: alice.address, value: '0x1' }]],
  ['wallet_sendCalls', [{ version: '2.0.0', chainId: '0x7a69', atomicRequired: false, calls: [{ to: alice.address, value: '0x1' }] }]],
] as const

describe('a site the user has not connected', () => {
  test('wallet_getCapabilities does not tell it the account is a smart account', async () => {
    const smartAccount = { address: '0x00000000000000000000000000000000000000aa' as const, accounts: { '31337': 'acc-1' } }
    const unconnected = testContext({ session: { ...elsewhere, smartAccount } })
    await unconnected.wallet.restore()
    expect(await unconnected.call('wallet_getCapabilities', [alice.address])).toEqual({
      result: { '0x7a69': { atomic: { status: 'unsupported' } }, '0x7a6a': { atomic: { status: 'unsupported' } } },
    })
    const connected = testContext({ session: { ...alice, sites: [here], smartAccount } })
    await connected.wallet.restore()
    expect(await connected.call('wallet_getCapabilities', [alice.address])).toMatchObject({ result: { '0x7a69': { paymasterService: { supported: true } } } })
  })

  test("cannot move the connected site's chain: its wallet_switchEthereumChain switches this page only (red team)", async () => {
    const { wallet, call, stored } = testContext({ session: elsewhere })
    await wallet.restore()
    const before = stored()?.chainId
    // What wallet_switchEthereumChain does once the chain's RPC answered (chain/switch.ts).
    await wallet.switchChain(31338)
    expect(wallet.chainId()).toBe(31338)
    expect(await call('eth_chainId')).toEqual({ result: '0x7a6a' })
    // The stored session (which the connected site's frame follows) keeps its chain.
    expect(stored()?.chainId).toBe(before)
  })

  test('sees no account, holds no permission, and every signing request is 4100 with nothing shown', async () => {
    const { wallet, call, events } = testContext({ session: elsewhere })
    await wallet.restore()
    expect(wallet.ui.get().session).not.toBeNull()
    expect(await call('eth_accounts')).toEqual({ result: [] })
    expect(await call('wallet_getPermissions')).toEqual({ result: [] })
    for (const [method, params] of signing) expect(await call(method, params)).toMatchObject({ code: 4100 })
    expect(wallet.ui.get().view).toBeNull()
    expect(wallet.ui.get().confirmation).toBeNull()
    // The host is never told the account.
    expect(events.filter(([e, p]) => e === 'accountsChanged' && (p as string[]).length > 0)).toEqual([])
  })

  test('eth_requestAccounts asks in the frame: Cancel is 4001, Connect gives the account and keeps the other site', async () => {
    const { wallet, call, events, stored } = testContext({ session: elsewhere })
    await wallet.restore()
    const cancelled = call('eth_requestAccounts')
    await tick()
    expect(wallet.ui.get()).toMatchObject({ view: 'connect', connected: false })
    wallet.close()
    expect(await cancelled).toMatchObject({ code: 4001 })
    expect(await call('eth_accounts')).toEqual({ result: [] })

    const granted = call('eth_requestAccounts')
    await tick()
    expect(wallet.ui.get().view).toBe('connect')
    await connectSite(wallet)
    expect(await granted).toEqual({ result: [alice.address] })
    expect(wallet.ui.get()).toMatchObject({ view: null, connected: true })
    expect(events).toContainEqual(['accountsChanged', [alice.address]])
    expect(stored()?.sites).toEqual([other, here])
    expect(await call('eth_accounts')).toEqual({ result: [alice.address] })
    expect(await call('wallet_getPermissions')).toMatchObject({ result: [{ parentCapability: 'eth_accounts', invoker: here }] })
    // Asked again, no prompt.
    expect(await call('eth_requestAccounts')).toEqual({ result: [alice.address] })
    expect(wallet.ui.get().view).toBeNull()
  })

  test('wallet_requestPermissions asks too', async () => {
    const { wallet, call } = testContext({ session: elsewhere })
    await wallet.restore()
    const asked = call('wallet_requestPermissions', [{ eth_accounts: {} }])
    await tick()
    expect(wallet.ui.get().view).toBe('connect')
    await connectSite(wallet)
    expect(await asked).toMatchObject({ result: [{ parentCapability: 'eth_accounts', caveats: [{ value: [alice.address] }] }] })
  })

  test("the page's disconnect does not log the user out of the sites that are connected", async () => {
    const { wallet, stored } = testContext({ session: elsewhere })
    await wallet.restore()
    await wallet.disconnect({ host: true })
    expect(stored()).toMatchObject({ address: alice.address, sites: [other] })
    expect(wallet.ui.get().session).not.toBeNull()
  })
})

describe('a connected site', () => {
  test('wallet_revokePermissions forgets this site only: accountsChanged [], then 4100, the session stays for the other site', async () => {
    const { wallet, call, events, stored } = testContext({ session: { ...alice, sites: [other, here] } })
    await wallet.restore()
    expect(await call('eth_accounts')).toEqual({ result: [alice.address] })
    expect(await call('wallet_revokePermissions', [{ eth_accounts: {} }])).toEqual({ result: null })
    expect(events.at(-1)).toEqual(['accountsChanged', []])
    expect(await call('eth_accounts')).toEqual({ result: [] })
    expect(await call('wallet_getPermissions')).toEqual({ result: [] })
    expect(await call('personal_sign', ['0x68656c6c6f', alice.address])).toMatchObject({ code: 4100 })
    expect(stored()).toMatchObject({ address: alice.address, sites: [other] })
  })

  test('signing in from a page connects that page; logging out forgets every site', async () => {
    const { wallet, call, logIn, stored } = testContext()
    await wallet.restore()
    const asked = call('eth_requestAccounts')
    await tick()
    const session = await logIn()
    wallet.announce(session)
    expect(await asked).toEqual({ result: [alice.address] })
    expect(stored()?.sites).toEqual([here])
    await wallet.disconnect()
    expect(stored()).toBeNull()
    await logIn({ ...alice, address: '0x00000000000000000000000000000000000B0b00' })
    expect(stored()?.sites).toEqual([here])
  })
})

describe('other tabs', () => {
  test('a connection granted in another tab of this origin is seen here; one granted to another origin is not', async () => {
    const { wallet, call, events, remote } = testContext({ session: elsewhere })
    await wallet.restore()
    const waiting = call('eth_requestAccounts')
    await tick()
    // The same session, connected to a third origin in its tab: still nothing for this one.
    remote({ ...elsewhere, sites: [other, 'http://127.0.0.1:5175'], expiresAt: Date.now() + sessionLifetimeMs })
    expect(await call('eth_accounts')).toEqual({ result: [] })
    expect(events.filter(([e]) => e === 'accountsChanged')).toEqual([])
    // A tab of this origin connected it.
    remote({ ...elsewhere, sites: [other, here], expiresAt: Date.now() + sessionLifetimeMs })
    expect(await waiting).toEqual({ result: [alice.address] })
    expect(events).toContainEqual(['accountsChanged', [alice.address]])
    expect(await call('eth_accounts')).toEqual({ result: [alice.address] })
    // And revoked there.
    remote({ ...elsewhere, expiresAt: Date.now() + sessionLifetimeMs })
    expect(events.at(-1)).toEqual(['accountsChanged', []])
    expect(await call('eth_accounts')).toEqual({ result: [] })
  })

  test('a stored or broadcast session with a malformed site list is not trusted', async () => {
    const { wallet, call, remote } = testContext()
    await wallet.restore()
    remote({ ...alice, sites: here, expiresAt: Date.now() + sessionLifetimeMs } as never)
    expect(wallet.ui.get().session).toBeNull()
    remote({ ...alice, sites: [here, 42], expiresAt: Date.now() + sessionLifetimeMs } as never)
    expect(wallet.ui.get().session).toBeNull()
    expect(await call('eth_accounts')).toEqual({ result: [] })
  })
})
