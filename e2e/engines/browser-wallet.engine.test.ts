import { createPublicClient, http } from 'viem'
import { parseSiweMessage, verifySiweMessage } from 'viem/siwe'
import { beforeAll, describe, expect, it } from 'vitest'
import { fixtureScript } from '../fixture-script.ts'
import type { Engine } from './engine.ts'
import { requestedEngines } from './engines.ts'
import { accounts, frameElement, runPageScript, startRequest, until, urls, useEngine } from './flows.ts'

/**
 * A browser wallet's sign-in in each engine: the injected test wallet (e2e/fixtures/wallet.fixture.ts,
 * which knows no ERC-7846) is picked in the connect modal, then viem's ERC-7846 `connect` with
 * signInWithEthereum runs unmodified in the page (e2e/fixtures/siwe-page.fixture.ts). The kit asks the
 * frame for the EIP-4361 message written for the page's origin and the wallet's own personal_sign signs
 * it, so the message's domain and URI are the origin the frame holds for the page. Firefox ESR 153 and
 * WebKitGTK 2.50 both give the frame `location.ancestorOrigins` (measured here: the demo's origin), so
 * the frame reads the page's origin from it in both, as in Chromium; the frame URL's `origin` (the
 * fallback, Penpal pinned to it) is not the path taken in these engines.
 */

type SignIn = { address?: `0x${string}`; message?: string; signature?: `0x${string}`; verified?: boolean; error?: { code?: number; name?: string } }

/** viem's connect with a sign-in, run by the page over the kit's provider (the fixture's window.SiwePage). */
const signIn = (engine: Engine, nonce: string, fields: { domain?: string; uri?: string; statement?: string } = {}) =>
  engine.run<SignIn>('page', 'return window.SiwePage.signIn(window.WalletKit.kit.provider, args[0], args[1])', nonce, fields)

/** What the test wallet was asked, in order. */
const walletCalls = (engine: Engine) => engine.run<string[]>('page', 'return window.testWallet.calls')

const freshNonce = () => `siwe${Math.random().toString(36).slice(2, 12)}`

describe.each(requestedEngines())('%s: a browser wallet signs in (ERC-7846)', (name) => {
  const launch = useEngine(name)
  let testWallet = ''
  let siwePage = ''
  beforeAll(async () => {
    testWallet = await fixtureScript('wallet.fixture.ts', 'TestWallet')
    siwePage = await fixtureScript('siwe-page.fixture.ts', 'SiwePage')
  })

  it("connects the injected wallet from the modal; viem's connect with signInWithEthereum gets a message for this page, signed once by the wallet and verified in the page; another domain is -32602 with no signature asked; wallet_disconnect ends the connection", async () => {
    const engine = await launch()
    const shot = (step: string) => engine.screenshot('page', `browser-wallet-${step}`)
    const { demoOrigin, providerUrl } = urls()
    await engine.goto(`${demoOrigin}/demo/`)
    // The driver adds no script before the page's own: the wallet announces itself after the kit
    // started listening (a late EIP-6963 announcement, as an extension that injects late makes).
    await runPageScript(engine, testWallet)
    const address = await engine.run<`0x${string}`>('page', 'return window.testWallet.address')

    await engine.click('page', 'text=Connect')
    const row = 'button[aria-label="Test Wallet"]'
    await engine.waitFor('frame', row)
    await shot('modal')
    await engine.click('frame', row)
    await until(
      () => engine.text('page', '[data-testid=account]'),
      (text) => text === address,
      'the demo page shows the browser wallet',
    )
    await engine.waitFor('page', frameElement, { hidden: true })
    expect(await accounts(engine)).toEqual([address])

    await runPageScript(engine, siwePage, 'SiwePage')
    const asked = (await walletCalls(engine)).length
    const nonce = freshNonce()
    const result = await signIn(engine, nonce, { statement: 'Sign in to the demo' })
    expect(result.error).toBeUndefined()
    expect(result.address).toBe(address)
    // viem's verifySiweMessage in the page, for the page's own host and the nonce.
    expect(result.verified).toBe(true)
    const site = new URL(demoOrigin).host
    expect(parseSiweMessage(result.message!)).toMatchObject({ domain: site, uri: demoOrigin, address, chainId: 31337, nonce, statement: 'Sign in to the demo' })
    // The wallet was asked wallet_connect (it knows none), its accounts, and one signature.
    const signedCalls = (await walletCalls(engine)).slice(asked)
    expect(signedCalls.slice(0, 3)).toEqual(['wallet_connect', 'eth_accounts', 'personal_sign'])
    expect(signedCalls.filter((m) => m === 'personal_sign')).toHaveLength(1)
    await engine.waitFor('page', frameElement, { hidden: true })
    await shot('signed-in')
    // The dapp's server checks the same signature against the chain, for its own domain only.
    const chain = createPublicClient({ transport: http(`${providerUrl}/rpc/31337`) })
    const { message, signature } = result as { message: string; signature: `0x${string}` }
    expect(await verifySiweMessage(chain, { message, signature, address, domain: site, nonce })).toBe(true)
    expect(await verifySiweMessage(chain, { message, signature, address, domain: 'bank.example', nonce })).toBe(false)

    // A sign-in for another site, or another origin: -32602, and the wallet is never asked to sign.
    const before = (await walletCalls(engine)).length
    const refused = { error: { code: -32602, name: 'InvalidParamsRpcError' } }
    expect(await signIn(engine, freshNonce(), { domain: 'bank.example' })).toEqual(refused)
    expect(await signIn(engine, freshNonce(), { uri: 'https://bank.example/login' })).toEqual(refused)
    expect((await walletCalls(engine)).slice(before)).not.toContain('personal_sign')
    await engine.waitFor('page', frameElement, { hidden: true })

    // viem's disconnect (ERC-7846 wallet_disconnect) ends the browser wallet's connection.
    expect(await engine.run('page', 'return window.SiwePage.signOut(window.WalletKit.kit.provider)')).toEqual([])
    await until(
      () => engine.text('page', '[data-testid=account]'),
      (text) => text === '—',
      'the demo page shows no account',
    )
    expect(await accounts(engine)).toEqual([])
    expect(await startRequest(engine, 'personal_sign', ['0x6869', address])).toMatchObject({ code: 4100 })
    await shot('disconnected')
  })
})
