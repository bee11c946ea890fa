import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { createPublicClient, http } from 'viem'
import { parseSiweMessage, verifySiweMessage } from 'viem/siwe'
import { fixtureScript } from './fixture-script.ts'
import { signUp, startRequest } from './flows.ts'
import { confirmSignature, frameOf, logInInFrame, providerUrl, signUpInFrame, snap } from './helpers.ts'
import { demoOrigin } from './ports.ts'
import { decide, openPairing, openWallet, scanQr, walletAddress } from './walletconnect.ts'
import { click } from './click.ts'

/**
 * ERC-7846 wallet_connect with signInWithEthereum, driven by viem's own `connect` action
 * (viem/experimental/erc7846, unmodified) on the demo page: one confirmation in the frame, a
 * message for the page's own site, verified by viem's verifySiweMessage in the page and again as
 * the dapp's server would, against the local chain.
 */
let siwePage = ''
test.beforeAll(async () => {
  siwePage = await fixtureScript('siwe-page.fixture.ts', 'SiwePage')
})

type Fields = { domain?: string; uri?: string; statement?: string }
type Answer = { address: `0x${string}`; message: string; signature: `0x${string}`; verified: boolean; error?: never }
type Refused = { error: { code?: number; name?: string } }
declare global {
  interface Window {
    SiwePage?: {
      signIn(provider: unknown, nonce: string, fields?: Fields): Promise<Answer | Refused>
      signOut(provider: unknown): Promise<unknown>
    }
  }
}

/** Starts viem's connect with a sign-in in the page; the answer comes later. */
const signIn = (page: Page, nonce: string, fields: Fields = {}) =>
  page.evaluate(([nonce, fields]) => window.SiwePage!.signIn(window.WalletKit!.kit!.provider, nonce, fields), [nonce, fields] as const)

const chain = createPublicClient({ transport: http(`${providerUrl}/rpc/31337`) })
const site = new URL(demoOrigin()).host
const freshNonce = () => `siwe${Math.random().toString(36).slice(2, 12)}`

async function signedUp(page: Page, request: APIRequestContext) {
  const address = await signUp(page, request)
  await page.addScriptTag({ content: siwePage })
  return address
}

test('viem connect with signInWithEthereum: one confirmation, the message names this site, it verifies in the page and on the server', async ({
  page,
  request,
}) => {
  const address = await signedUp(page, request)
  const nonce = freshNonce()
  const answer = signIn(page, nonce, { statement: 'Sign in to the demo' })
  const frame = frameOf(page)
  await expect(frame.getByTestId('confirm-message')).toContainText(`${site} wants you to sign in with your Ethereum account`)
  await expect(frame.getByTestId('confirm-sign-in-warning')).toHaveCount(0)
  await expect(frame.getByTestId('confirm-sign-in')).toContainText(`Sign in to ${site}`)
  await confirmSignature(page)
  const result = (await answer) as Answer
  expect(result.error).toBeUndefined()
  expect(result.address.toLowerCase()).toBe(address.toLowerCase())
  expect(result.verified).toBe(true)
  expect(parseSiweMessage(result.message)).toMatchObject({ domain: site, uri: demoOrigin(), chainId: 31337, nonce, statement: 'Sign in to the demo' })

  // The dapp's server: the same verifier, on the chain, with its own nonce and domain.
  const { message, signature } = result
  expect(await verifySiweMessage(chain, { message, signature, address, domain: site, nonce })).toBe(true)
  expect(await verifySiweMessage(chain, { message, signature, address, domain: site, nonce: freshNonce() })).toBe(false)
  expect(await verifySiweMessage(chain, { message, signature, address, domain: 'bank.example', nonce })).toBe(false)

  // The same nonce again is a replay: refused before anything is shown.
  expect(await signIn(page, nonce)).toEqual({ error: { code: -32602, name: 'InvalidParamsRpcError' } })
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
})

test('a page asking to sign in for another site, or with a bad nonce, is refused -32602 with nothing shown; wallet_disconnect forgets the site', async ({
  page,
  request,
}) => {
  await signedUp(page, request)
  for (const fields of [{ domain: 'bank.example' }, { uri: 'https://bank.example/login' }]) {
    expect(await signIn(page, freshNonce(), fields)).toEqual({ error: { code: -32602, name: 'InvalidParamsRpcError' } })
    await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  }
  for (const nonce of ['short', 'x'.repeat(200), 'not-alnum-nonce'])
    expect(await signIn(page, nonce)).toEqual({ error: { code: -32602, name: 'InvalidParamsRpcError' } })

  expect(await page.evaluate(() => window.SiwePage!.signOut(window.WalletKit!.kit!.provider))).toEqual([])
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
})

test('signed out, wallet_connect opens the login and, once signed in, the sign-in confirmation follows in the same modal', async ({ page, request }) => {
  await page.goto('/demo/')
  await page.addScriptTag({ content: siwePage })
  const nonce = freshNonce()
  const answer = signIn(page, nonce)
  const frame = frameOf(page)
  await signUpInFrame(page, request)
  await expect(frame.getByTestId('confirm-message')).toContainText(`${site} wants you to sign in`)
  await snap(page, 'sign-in-confirmation')
  await confirmSignature(page)
  const result = (await answer) as Answer
  expect(result.verified).toBe(true)
  expect(await verifySiweMessage(chain, { message: result.message, signature: result.signature, domain: site, nonce })).toBe(true)
})

test('a smart account signs in: its ERC-1271 / ERC-6492 signature verifies with verifySiweMessage, in the page and on the chain', async ({ page, request }) => {
  // The seed app with account abstraction on (sandbox/seed/apps.json), on the demo page.
  await page.goto('/demo/')
  await page.evaluate(() => {
    window.WalletKit!.kit!.destroy()
    return window.WalletKit!.createWalletKit({ appId: 'smart', env: 'production' }).open('connect')
  })
  await logInInFrame(page, request)
  const [owner] = (await startRequest(page, 'eth_accounts')).result as `0x${string}`[]
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await click(frame.getByRole('button', { name: 'Smart Wallet' }))
  const aaAddress = (await frame.getByRole('listitem').first().locator('.wk-address').getAttribute('title')) as `0x${string}`
  await click(frame.getByRole('button', { name: 'Use on this site' }))
  await expect(frame.getByRole('button', { name: 'Use Personal Wallet' })).toBeVisible()
  await page.evaluate(() => window.WalletKit!.kit!.close())

  await page.addScriptTag({ content: siwePage })
  const nonce = freshNonce()
  const answer = signIn(page, nonce)
  await expect(frame.getByTestId('confirm-message')).toContainText(aaAddress)
  await confirmSignature(page)
  const result = (await answer) as Answer
  expect(result.address.toLowerCase()).toBe(aaAddress.toLowerCase())
  expect(result.verified).toBe(true)
  const { message, signature } = result
  expect(await verifySiweMessage(chain, { message, signature, address: aaAddress, domain: site, nonce })).toBe(true)
  // The owner's key signed it, for the account: as the owner's own signature it is worth nothing.
  expect(await chain.verifyMessage({ address: owner!, message, signature })).toBe(false)
})

test('a WalletConnect wallet signs the same message on its own device, through its personal_sign', async ({ page }) => {
  await openPairing(page)
  const wallet = await openWallet(page, await scanQr(page))
  const address = await walletAddress(wallet)
  await decide(wallet, 'proposal', 'Approve')
  await expect(page.getByTestId('account')).toHaveText(address)

  await page.addScriptTag({ content: siwePage })
  const nonce = freshNonce()
  const answer = signIn(page, nonce)
  await expect(frameOf(page).getByTestId('confirm-in-wallet')).toHaveText('Confirm in your wallet')
  await expect(frameOf(page).getByTestId('confirm-sign-in')).toContainText(`Sign in to ${site}`)
  await decide(wallet, 'request', 'Approve')
  const result = (await answer) as Answer
  expect(result.address.toLowerCase()).toBe(address.toLowerCase())
  expect(result.verified).toBe(true)
  expect(await verifySiweMessage(chain, { message: result.message, signature: result.signature, address, domain: site, nonce })).toBe(true)
})
