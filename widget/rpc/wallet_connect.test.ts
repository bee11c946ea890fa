import { describe, expect, test } from 'vitest'
import { hexToString, type Hex } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { connectSite } from '../connect/SiteConnect.tsx'
import { alice } from '../wallet.fixture.ts'
import { testContext } from './context.fixture.ts'
// Loaded with the tests, as the fixture does for the other lazy handlers: one tick reaches the queue.
import './wallet_connect.ts'

const tick = () => new Promise((r) => setTimeout(r, 0))
let nonces = 0
/** A fresh nonce per request: the frame signs each nonce once. */
const nonce = () => `n0nce${String(++nonces).padStart(6, '0')}`
const signIn = (fields: Record<string, unknown> = {}) => [
  { version: '1', capabilities: { signInWithEthereum: { nonce: nonce(), chainId: '0x7a69', ...fields } } },
]

async function connected() {
  const t = testContext({ session: alice })
  await t.wallet.restore()
  return t
}

/** The sign-in message on screen, as text. */
const shown = (t: Awaited<ReturnType<typeof connected>>) => hexToString(t.wallet.ui.get().confirmation!.payload.message as Hex)

describe('wallet_connect with signInWithEthereum', () => {
  test('one confirmation shows the EIP-4361 message for the verified site; confirm answers it with its signature', async () => {
    const t = await connected()
    const before = Date.now()
    const answer = t.call('wallet_connect', signIn({ statement: 'Sign in to the demo', requestId: 'r-1', resources: ['https://127.0.0.1:5173/terms'] }))
    await tick()
    expect(t.wallet.ui.get().view).toBe('transaction_confirmation')
    expect(t.wallet.ui.get().queued).toBe(0)
    const text = shown(t)
    const fields = parseSiweMessage(text)
    expect(fields).toMatchObject({
      domain: '127.0.0.1:5173',
      scheme: 'http',
      uri: 'http://127.0.0.1:5173',
      address: alice.address,
      chainId: 31337,
      version: '1',
      statement: 'Sign in to the demo',
      requestId: 'r-1',
      resources: ['https://127.0.0.1:5173/terms'],
    })
    expect(fields.nonce).toMatch(/^n0nce\d{6}$/)
    expect(fields.issuedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000)
    expect(fields.issuedAt!.getTime()).toBeLessThanOrEqual(Date.now())
    await t.confirmations.confirm()
    expect(await answer).toEqual({
      result: { accounts: [{ address: alice.address, capabilities: { signInWithEthereum: { message: text, signature: '0x03' } } }] },
    })
    // Signed once, as personal_sign signs: the message's exact bytes.
    expect(t.calls.filter(([name]) => name === 'signMessage')).toHaveLength(1)
  })

  test.each([
    ['a short nonce', { nonce: 'abc123' }, 'nonce'],
    ['a nonce that is not letters and digits', { nonce: 'abcd-1234' }, 'nonce'],
    ['an overlong nonce', { nonce: 'a'.repeat(65) }, 'nonce'],
    ['another site as domain', { domain: 'bank.example' }, "this site's own"],
    ['the same host on another port', { domain: '127.0.0.1:5174' }, "this site's own"],
    ['a URI on another site', { uri: 'https://bank.example/login' }, 'must be on this site'],
    ['a URI that is no URL', { uri: 'not a uri' }, 'must be on this site'],
    ['another scheme', { scheme: 'https' }, "this site's"],
    ['a chain this site is not offered', { chainId: '0x1' }, 'not a chain this site is offered'],
    ['a chain id that is no number', { chainId: 31337 }, 'chainId'],
    ['a statement of two lines', { statement: 'one\nURI: https://bank.example' }, 'statement'],
    ['a statement with a bidi override', { statement: 'Sign in to \u202Eknab' }, 'statement'],
    ['a statement with a line separator', { statement: 'one\u2028URI: https://bank.example' }, 'statement'],
    ['a resource with a NUL', { resources: ['https://127.0.0.1:5173/\u0000'] }, 'resources'],
    ['an overlong statement', { statement: 'a'.repeat(1001) }, 'statement'],
    ['an expiration that is no date', { expirationTime: 'tomorrow' }, 'expirationTime'],
    ['another version', { version: '2' }, 'version'],
  ])('%s is refused -32602 before anything is shown', async (_, fields, reason) => {
    const t = await connected()
    const [params] = signIn()
    Object.assign(params!.capabilities.signInWithEthereum, fields)
    expect(await t.call('wallet_connect', [params])).toMatchObject({ code: -32602, message: expect.stringContaining(reason) })
    expect(t.wallet.ui.get().view).toBeNull()
    expect(t.calls).toEqual([])
  })

  test('Reject answers 4001 and nothing is signed', async () => {
    const t = await connected()
    const answer = t.call('wallet_connect', signIn())
    await tick()
    t.confirmations.reject()
    expect(await answer).toMatchObject({ code: 4001 })
    expect(t.calls).toEqual([])
  })

  test('a nonce already signed is refused (a replay), before it is shown', async () => {
    const t = await connected()
    const params = signIn()
    const first = t.call('wallet_connect', params)
    await tick()
    await t.confirmations.confirm()
    expect(await first).toMatchObject({ result: { accounts: [{ address: alice.address }] } })
    expect(await t.call('wallet_connect', params)).toMatchObject({ code: -32602, message: expect.stringContaining('already signed') })
    expect(t.wallet.ui.get().view).toBeNull()
  })

  test('a second request for a nonce waiting on screen is refused; rejected, the nonce may be asked again', async () => {
    const t = await connected()
    const params = signIn()
    const first = t.call('wallet_connect', params)
    await tick()
    expect(await t.call('wallet_connect', params)).toMatchObject({ code: -32602, message: expect.stringContaining('waiting') })
    expect(t.wallet.ui.get().queued).toBe(0)
    t.confirmations.reject()
    expect(await first).toMatchObject({ code: 4001 })
    const again = t.call('wallet_connect', params)
    await tick()
    expect(shown(t)).toContain('wants you to sign in')
    t.confirmations.reject()
    expect(await again).toMatchObject({ code: 4001 })
  })

  test('asked while a confirmation is open, it waits its turn and does not replace what is shown', async () => {
    const t = await connected()
    const sign = t.call('personal_sign', ['0x6869', alice.address])
    await tick()
    const signIn1 = t.call('wallet_connect', signIn())
    await tick()
    expect(t.wallet.ui.get().confirmation?.payload.message).toBe('0x6869')
    expect(t.wallet.ui.get().queued).toBe(1)
    t.confirmations.reject()
    expect(await sign).toMatchObject({ code: 4001 })
    await tick()
    expect(shown(t)).toContain('wants you to sign in')
    t.confirmations.reject()
    expect(await signIn1).toMatchObject({ code: 4001 })
  })

  test('an address other than the account is 4100', async () => {
    const t = await connected()
    expect(await t.call('wallet_connect', signIn({ address: '0x00000000000000000000000000000000000000b0' }))).toMatchObject({ code: 4100 })
    expect(t.wallet.ui.get().view).toBeNull()
  })
})

describe('wallet_connect and wallet_disconnect', () => {
  test('without a capability it connects as eth_requestAccounts does; unknown capabilities are left unanswered', async () => {
    const t = testContext({ session: { ...alice, sites: [] } })
    await t.wallet.restore()
    const answer = t.call('wallet_connect', [{ version: '1', capabilities: { somethingElse: { x: 1 } } }])
    await tick()
    expect(t.wallet.ui.get().view).toBe('connect')
    await connectSite(t.wallet)
    expect(await answer).toEqual({ result: { accounts: [{ address: alice.address, capabilities: {} }] } })
    expect(await t.call('wallet_connect')).toEqual({ result: { accounts: [{ address: alice.address, capabilities: {} }] } })
    expect(await t.call('wallet_connect', ['not an object'])).toMatchObject({ code: -32602 })
  })

  test('a site not yet connected is asked to connect first, then the sign-in is the one confirmation', async () => {
    const t = testContext({ session: { ...alice, sites: [] } })
    await t.wallet.restore()
    const answer = t.call('wallet_connect', signIn())
    await tick()
    expect(t.wallet.ui.get().view).toBe('connect')
    await connectSite(t.wallet)
    await tick()
    expect(shown(t)).toContain('127.0.0.1:5173 wants you to sign in')
    await t.confirmations.confirm()
    expect(await answer).toMatchObject({ result: { accounts: [{ capabilities: { signInWithEthereum: { signature: '0x03' } } }] } })
  })

  test('wallet_disconnect forgets this site as revoking eth_accounts does', async () => {
    const t = await connected()
    expect(await t.call('wallet_disconnect')).toEqual({ result: null })
    expect(await t.call('eth_accounts')).toEqual({ result: [] })
    expect(t.events).toContainEqual(['accountsChanged', []])
    expect(t.stored()?.sites).toEqual([])
    expect(await t.call('wallet_disconnect', [{}])).toMatchObject({ code: -32602 })
  })
})
