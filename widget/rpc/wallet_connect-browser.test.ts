import { describe, expect, test } from 'vitest'
import { hexToString, type Hex } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { setUi, alice } from '../wallet.fixture.ts'
import { testContext } from './context.fixture.ts'
import { connectAnswer } from './wallet_connect.ts'

/**
 * ERC-7846 wallet_connect for a browser wallet that does not know it (bridge method connectAnswer):
 * the frame reads the page's params as its own handler does and writes the sign-in message for the
 * page's verified site; the host has the browser wallet sign it. The host page is not trusted.
 */
const bob = '0x00000000000000000000000000000000000000B0' as const
const carol = '0x00000000000000000000000000000000000000C0' as const
let nonces = 0
const nonce = () => `br0wser${String(++nonces).padStart(6, '0')}`
const signIn = (fields: Record<string, unknown> = {}) => [
  { version: '1', capabilities: { signInWithEthereum: { nonce: nonce(), chainId: '0x7a69', ...fields } } },
]

/** A page with a browser wallet connected (the frame knows its id only) and, unless said, nobody signed in to the frame. */
function browserPage(options: Parameters<typeof testContext>[0] = {}) {
  const t = testContext(options)
  setUi(t.wallet, { external: { walletId: 'test.wallet', address: bob } })
  /** The answer, or the error's code and message. */
  const answer = (params: unknown, accounts: readonly `0x${string}`[] = [bob, carol]) => {
    try {
      return { result: connectAnswer(t.ctx, params, accounts) }
    } catch (e) {
      const { code, message } = e as { code: number; message: string }
      return { code, message }
    }
  }
  return { ...t, answer }
}

describe('connectAnswer: a browser wallet’s wallet_connect, answered by the frame', () => {
  test('with signInWithEthereum: the EIP-4361 message for the verified site and the wallet’s account, and what its personal_sign signs', () => {
    const t = browserPage()
    const before = Date.now()
    const params = signIn({ statement: 'Sign in to the demo', resources: ['http://127.0.0.1:5173/terms'] })
    const { result } = t.answer(params)
    const [answer, sign] = result!
    const { address, capabilities } = answer.accounts[0]!
    const message = capabilities.signInWithEthereum!.message
    expect(answer.accounts).toHaveLength(1)
    expect(address).toBe(bob)
    expect(parseSiweMessage(message)).toMatchObject({
      domain: '127.0.0.1:5173',
      scheme: 'http',
      uri: 'http://127.0.0.1:5173',
      address: bob,
      chainId: 31337,
      version: '1',
      nonce: params[0]!.capabilities.signInWithEthereum.nonce,
      statement: 'Sign in to the demo',
      resources: ['http://127.0.0.1:5173/terms'],
    })
    expect(parseSiweMessage(message).issuedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000)
    // personal_sign's params: the message's UTF-8 bytes in hex, and the account.
    expect(sign![1]).toBe(bob)
    expect(hexToString(sign![0] as Hex)).toBe(message)
    // No signature is asked of the frame, nothing is shown, no service is called.
    expect(t.wallet.ui.get().view).toBeNull()
    expect(t.calls).toEqual([])
  })

  test('without a capability: every account of the wallet, nothing to sign', () => {
    const t = browserPage()
    const accounts = [
      { address: bob, capabilities: {} },
      { address: carol, capabilities: {} },
    ]
    expect(t.answer([{ version: '1', capabilities: { other: {} } }]).result).toEqual([{ accounts }])
    expect(t.answer(undefined).result).toEqual([{ accounts }])
    expect(t.answer([]).result).toEqual([{ accounts }])
  })

  test('the account the dapp names signs in when the wallet has it; one it does not have is 4100', () => {
    const t = browserPage()
    expect(t.answer(signIn({ address: carol.toLowerCase() })).result![1]![1]).toBe(carol)
    expect(t.answer(signIn({ address: '0x00000000000000000000000000000000000000d0' }))).toMatchObject({ code: 4100 })
  })

  test.each([
    ['another site as domain', { domain: 'bank.example' }, "this site's own"],
    ['a URI on another site', { uri: 'https://bank.example/login' }, 'must be on this site'],
    ['another scheme', { scheme: 'https' }, "this site's"],
    ['a chain this site is not offered', { chainId: '0x1' }, 'not a chain this site is offered'],
    ['a short nonce', { nonce: 'abc123' }, 'nonce'],
    ['a statement of two lines', { statement: 'one\nURI: https://bank.example' }, 'statement'],
  ])('%s is refused -32602, and the nonce stays unused', (_, fields, reason) => {
    const t = browserPage()
    const [params] = signIn()
    Object.assign(params!.capabilities.signInWithEthereum, fields)
    expect(t.answer([params])).toMatchObject({ code: -32602, message: expect.stringContaining(reason) })
    if (!('nonce' in fields)) {
      Object.assign(params!.capabilities.signInWithEthereum, { domain: null, uri: null, scheme: null, statement: null, chainId: '0x7a69' })
      expect(t.answer([params]).result).toHaveLength(2)
    }
  })

  test('malformed params or accounts are refused -32602', () => {
    const t = browserPage()
    for (const params of ['x', [1], [{ capabilities: 'x' }], [{}, {}], { capabilities: {} }, [{ capabilities: { signInWithEthereum: 'x' } }]])
      expect(t.answer(params), JSON.stringify(params)).toMatchObject({ code: -32602 })
    for (const accounts of [[], ['0x1234'], bob, [bob, 1], Array(101).fill(bob), null, [{ address: bob }]])
      expect(t.answer(signIn(), accounts as never), JSON.stringify(accounts)).toMatchObject({ code: -32602, message: expect.stringContaining('accounts') })
  })

  test('a nonce is written into one message only: asked again, by this path or the embedded wallet’s, it is a replay', async () => {
    const t = browserPage({ session: alice })
    const params = signIn()
    expect(t.answer(params).result).toHaveLength(2)
    expect(t.answer(params)).toMatchObject({ code: -32602, message: expect.stringContaining('already signed') })
    // The frame's own wallet_connect keeps the same list.
    expect(await t.call('wallet_connect', params)).toMatchObject({ code: -32602, message: expect.stringContaining('already signed') })
  })

  test('with no browser wallet connected on the page, nothing is written (4100)', () => {
    const t = browserPage()
    setUi(t.wallet, { external: null })
    expect(t.answer(signIn())).toMatchObject({ code: 4100 })
    expect(t.answer(undefined)).toMatchObject({ code: 4100 })
  })

  test('nothing of the embedded session: with a user signed in and connected, the answer names only the accounts the page passed', async () => {
    const t = browserPage({ session: alice })
    await t.wallet.restore()
    expect(t.wallet.ui.get().session?.address).toBe(alice.address)
    const { result } = t.answer(signIn(), [bob])
    expect(JSON.stringify(result).toLowerCase()).not.toContain(alice.address.toLowerCase().slice(2))
    expect(result![0].accounts[0]!.address).toBe(bob)
  })
})
