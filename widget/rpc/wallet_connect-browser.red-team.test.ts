import { describe, expect, test } from 'vitest'
import { hexToString, type Hex } from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { alice, setUi } from '../wallet.fixture.ts'
import { testContext } from './context.fixture.ts'
import { connectAnswer } from './wallet_connect.ts'

/**
 * Attacks on connectAnswer (a browser wallet's ERC-7846 wallet_connect, answered by the frame) by
 * the host page, which calls the bridge method itself with whatever it likes. Each test fails if
 * the attack works.
 */
const bob = '0x00000000000000000000000000000000000000B0' as const
const tick = () => new Promise((r) => setTimeout(r, 0))
let nonces = 0
const nonce = () => `rt${String(++nonces).padStart(10, '0')}`
const signIn = (fields: Record<string, unknown> = {}) => [
  { version: '1', capabilities: { signInWithEthereum: { nonce: nonce(), chainId: '0x7a69', ...fields } } },
]
const nonceOf = (params: ReturnType<typeof signIn>) => params[0]!.capabilities.signInWithEthereum.nonce

/** A page with a browser wallet connected; `session` signs a user in to the embedded wallet too. */
async function page(options: Parameters<typeof testContext>[0] & { later?: boolean } = {}) {
  const t = testContext(options)
  if (options.session) await t.wallet.restore()
  const browserWallet = () => setUi(t.wallet, { external: { walletId: 'test.wallet', address: bob } })
  if (!options.later) browserWallet()
  const answer = (params: unknown, accounts: unknown = [bob]) => {
    try {
      return { result: connectAnswer(t.ctx, params, accounts) }
    } catch (e) {
      const { code, message } = e as { code: number; message: string }
      return { code, message }
    }
  }
  return { ...t, answer, browserWallet }
}

describe('connectAnswer under attack by the host page', () => {
  test('filling the nonce memory with browser-wallet answers does not evict a nonce the embedded wallet signed (no replay)', async () => {
    const t = await page({ session: alice, later: true })
    const params = signIn()
    const first = t.call('wallet_connect', params)
    await tick()
    await t.confirmations.confirm()
    expect(await first).toMatchObject({ result: { accounts: [{ address: alice.address }] } })
    // Then the user connects a browser wallet on this page (the embedded session stays stored).
    t.browserWallet()
    // No user in the loop: hundreds of calls cost the page nothing.
    for (let i = 0; i < 600; i++) expect(t.answer(signIn()).result).toHaveLength(2)
    // Asked again, through either path: the replay is refused before anything is shown.
    expect(t.answer(params)).toMatchObject({ code: -32602, message: expect.stringContaining('already signed') })
    setUi(t.wallet, { external: null })
    expect(await t.call('wallet_connect', params)).toMatchObject({ code: -32602, message: expect.stringContaining('already signed') })
    expect(t.wallet.ui.get().confirmation).toBeFalsy()
  })

  test('a message written for the embedded wallet’s own address is only text: signing it with the embedded wallet still asks the user', async () => {
    const t = await page({ session: alice })
    const { result } = t.answer(signIn(), [alice.address])
    const [bytes, address] = result![1]!
    expect(parseSiweMessage(hexToString(bytes as Hex)).address).toBe(alice.address)
    const signed = t.call('personal_sign', [bytes, address])
    await tick()
    // Shown for confirmation, nothing signed yet.
    expect(t.wallet.ui.get().confirmation?.payload.message).toBe(bytes)
    expect(t.calls.filter(([name]) => name === 'signMessage')).toEqual([])
    t.confirmations.reject()
    expect(await signed).toMatchObject({ code: 4001 })
    expect(t.calls.filter(([name]) => name === 'signMessage')).toEqual([])
  })

  test('a sign-in for another site cannot be had through the URI’s userinfo, a port, a subdomain or the scheme’s case', async () => {
    const t = await page()
    for (const fields of [
      { uri: 'http://127.0.0.1:5173@bank.example/' },
      { uri: 'http://127.0.0.1:5174/' },
      { domain: '127.0.0.1:5173.bank.example' },
      { domain: 'bank.example', uri: 'http://127.0.0.1:5173' },
      { scheme: 'https' },
      { resources: ['https://bank.example/grant'], domain: 'BANK.example' },
    ]) {
      const params = signIn(fields)
      expect(t.answer(params), JSON.stringify(fields)).toMatchObject({ code: -32602 })
      // Nothing lost: the nonce is still good for a well-formed sign-in.
      expect(t.answer(signIn({ nonce: nonceOf(params) })).result).toHaveLength(2)
    }
  })

  test('a field viem will not write (a resource or URI that is no URI) is -32602 with nothing remembered, not an internal error', async () => {
    const t = await page()
    for (const fields of [{ resources: ['not a uri'] }, { resources: ['http://127.0.0.1:5173/ x'] }]) {
      const params = signIn(fields)
      expect(t.answer(params), JSON.stringify(fields)).toMatchObject({ code: -32602 })
      expect(t.answer(signIn({ nonce: nonceOf(params) })).result).toHaveLength(2)
    }
  })

  test('refused for no browser wallet, or for accounts it does not have: the nonce is not burnt', async () => {
    const t = await page()
    const params = signIn({ address: '0x00000000000000000000000000000000000000d0' })
    expect(t.answer(params)).toMatchObject({ code: 4100 })
    setUi(t.wallet, { external: null })
    const other = signIn()
    expect(t.answer(other)).toMatchObject({ code: 4100 })
    setUi(t.wallet, { external: { walletId: 'test.wallet', address: bob } })
    expect(t.answer(signIn({ nonce: nonceOf(params) })).result).toHaveLength(2)
    expect(t.answer(other).result).toHaveLength(2)
  })

  test('odd accounts from a hostile page or wallet are -32602 and write nothing', async () => {
    const t = await page()
    const params = signIn()
    for (const accounts of [
      [`${bob}\n`],
      [` ${bob}`],
      [`0x${'g'.repeat(40)}`],
      [bob.toLowerCase().replace('0x', '0X')],
      Object.assign([bob], { 1: 'x' }),
      { length: 1, 0: bob },
      'x'.repeat(1_000_000),
    ])
      expect(t.answer(params, accounts), String(accounts).slice(0, 60)).toMatchObject({ code: -32602 })
    expect(t.answer(params).result).toHaveLength(2)
  })

  test('params with __proto__ or a constructor key change nothing outside the request', async () => {
    const t = await page()
    const params = JSON.parse(
      `[{"version":"1","capabilities":{"__proto__":{"polluted":1},"signInWithEthereum":{"nonce":"${nonce()}","chainId":"0x7a69","__proto__":{"domain":"bank.example"}}}}]`,
    )
    const { result } = t.answer(params)
    expect(parseSiweMessage(result![0].accounts[0]!.capabilities.signInWithEthereum!.message).domain).toBe('127.0.0.1:5173')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).domain).toBeUndefined()
  })
})
