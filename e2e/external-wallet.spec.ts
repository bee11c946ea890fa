import { expect, test, type Page } from '@playwright/test'
import { createPublicClient, http, verifyMessage } from 'viem'
import { parseSiweMessage, verifySiweMessage } from 'viem/siwe'
import { fixtureScript } from './fixture-script.ts'
import { startRequest } from './flows.ts'
import { frameOf, openConnect, providerUrl, snap } from './helpers.ts'
import { demoOrigin } from './ports.ts'
import { click } from './click.ts'

/**
 * A browser wallet lives in the host page, never in the cross-origin wallet frame: the kit finds
 * it (EIP-6963), the modal lists it, and once chosen it answers in the top frame.
 */
let testWallet = ''
/** viem's ERC-7846 connect with signInWithEthereum, unmodified, as a dapp runs it (e2e/fixtures/siwe-page.fixture.ts). */
let siwePage = ''
test.beforeAll(async () => {
  testWallet = await fixtureScript('wallet.fixture.ts', 'TestWallet')
  siwePage = await fixtureScript('siwe-page.fixture.ts', 'SiwePage')
})

type TestWallet = { address: `0x${string}`; calls: string[]; disconnect(): void; rejectNextSignature(): void }
const wallet = (page: Page) => page.evaluate(() => (window as unknown as { testWallet: TestWallet }).testWallet)

test('an injected wallet is listed in the modal and, chosen, connects and signs in the top frame', async ({ page }) => {
  await page.addInitScript({ content: testWallet })
  await page.goto('/demo/')
  const { address } = await wallet(page)

  await openConnect(page)
  const frame = frameOf(page)
  await expect(frame.getByRole('button', { name: 'Test Wallet' })).toBeVisible()
  await snap(page, 'connect-home-wallets')
  await click(frame.getByRole('button', { name: 'More Options' }))
  await expect(frame.getByRole('heading', { name: 'Select Your Log In Method' })).toBeVisible()
  await snap(page, 'connect-wallet')
  await click(frame.getByRole('button', { name: 'Test Wallet' }))

  await expect(page.getByTestId('account')).toHaveText(address)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [address] })
  expect(await startRequest(page, 'eth_chainId')).toEqual({ result: '0x7a69' })

  // Signing goes to the browser wallet: no confirmation modal in the frame.
  const signed = await startRequest(page, 'personal_sign', ['0x68656c6c6f', address])
  expect(await verifyMessage({ address, message: 'hello', signature: signed.result as `0x${string}` })).toBe(true)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  expect((await wallet(page)).calls).toEqual(['eth_requestAccounts', 'eth_chainId', 'eth_accounts', 'eth_chainId', 'personal_sign'])

  // Checks still run first: bad params never reach the wallet.
  expect(await startRequest(page, 'personal_sign', ['0x68656c6c6f'])).toMatchObject({ code: -32602 })
  expect(await startRequest(page, 'wallet_switchEthereumChain', [{ chainId: '0x1' }])).toMatchObject({ code: 4902 })

  // Disconnecting ends the routing: the embedded wallet answers again (nobody logged in).
  const events = page.evaluate(
    () =>
      new Promise<unknown[]>((resolve) => {
        const seen: unknown[] = []
        const provider = window.WalletKit!.kit!.provider
        provider.on('accountsChanged', (a: never) => seen.push(a))
        provider.on('disconnect', ((e: { code: number }) => resolve([...seen, e.code])) as never)
      }),
  )
  await page.evaluate(() => window.WalletKit!.kit!.disconnect())
  expect(await events).toEqual([[], 4900])
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
  expect(await startRequest(page, 'personal_sign', ['0x6869', address])).toMatchObject({ code: 4100 })
})

test('the wallet disconnecting in its own UI ends the connection', async ({ page }) => {
  await page.addInitScript({ content: testWallet })
  await page.goto('/demo/')
  // Wait for the connect request's own answer too, so nothing connects again after the disconnect.
  const connecting = startRequest(page, 'eth_requestAccounts')
  await click(frameOf(page).getByRole('button', { name: 'Test Wallet' }))
  expect(await connecting).toEqual({ result: [(await wallet(page)).address] })
  await expect(page.getByTestId('account')).toHaveText((await wallet(page)).address)

  await page.evaluate(() => (window as unknown as { testWallet: TestWallet }).testWallet.disconnect())
  await expect(page.getByTestId('account')).toHaveText('—')
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
})

test('a legacy window.ethereum is offered when nothing announces itself', async ({ page }) => {
  await page.addInitScript(() => {
    Object.assign(window, {
      ethereum: { request: async () => ['0x000000000000000000000000000000000000dEaD'], on() {}, removeListener() {} },
    })
  })
  await page.goto('/demo/')
  await openConnect(page)
  await expect(frameOf(page).getByRole('button', { name: 'Browser Wallet' })).toBeVisible()
})

/** An EIP-6963 announcement from the page itself: any page can claim any name and icon. */
const announceFromPage = (name: string, rdns: string) =>
  `(() => {
    const googleIcon = "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 8 8'><circle cx='4' cy='4' r='4' fill='%234285F4'/></svg>"
    const provider = { request: async () => { throw Object.assign(new Error('no'), { code: 4001 }) }, on() {}, removeListener() {} }
    const detail = Object.freeze({ info: { uuid: crypto.randomUUID(), name: ${JSON.stringify(name)}, icon: googleIcon, rdns: ${JSON.stringify(rdns)} }, provider })
    const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
    window.addEventListener('eip6963:requestProvider', announce)
    announce()
  })()`

test('wallets the page announces are shown under "From this site"', async ({ page }) => {
  await page.addInitScript({ content: testWallet })
  await page.goto('/demo/')
  await openConnect(page)
  const frame = frameOf(page)
  const fromSite = frame.getByRole('group', { name: 'From this site' })
  await expect(fromSite.getByText('From this site', { exact: true })).toBeVisible()
  await expect(fromSite.getByRole('button', { name: 'Test Wallet' })).toBeVisible()
  await snap(page, 'connect-home-from-this-site')
  await click(frame.getByRole('button', { name: 'More Options' }))
  await expect(frame.getByRole('group', { name: 'From this site' }).getByRole('button', { name: 'Test Wallet' })).toBeVisible()
})

test('a wallet the page names after a sign-in method (Google, in Cyrillic letters too) is refused', async ({ page }) => {
  const warnings: string[] = []
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
  await page.addInitScript({ content: testWallet })
  await page.addInitScript({ content: announceFromPage('Google', 'com.google') })
  await page.addInitScript({ content: announceFromPage('G\u043e\u043egle', 'com.g00gle') }) // Cyrillic о
  await page.goto('/demo/')
  await openConnect(page)
  const frame = frameOf(page)
  // The real wallet is there; neither "Google" is, on the home page or in the full list.
  await expect(frame.getByRole('group', { name: 'From this site' }).getByRole('button', { name: 'Test Wallet' })).toBeVisible()
  await click(frame.getByRole('button', { name: 'More Options' }))
  const listed = frame.getByRole('group', { name: 'From this site' }).getByRole('button')
  await expect(listed).toHaveCount(1)
  await expect(listed).toHaveAccessibleName('Test Wallet')
  await expect(frame.getByRole('button', { name: /g.{2}gle/i })).toHaveCount(0)
  await expect
    .poll(() => warnings.find((w) => w.includes('takes the name of the sign-in method Google')))
    .toContain('wallet-kit: refused wallet "Google" takes the name of the sign-in method Google')
})

type SignIn = { address: `0x${string}`; message: string; signature: `0x${string}`; verified: boolean; error?: { code?: number; name?: string } }
/** viem's connect with a sign-in, run by the page over the kit's provider (the fixture's window.SiwePage). */
const signIn = (page: Page, nonce: string, fields: { domain?: string; uri?: string; statement?: string; chainId?: number } = {}) =>
  page.evaluate(
    ([nonce, fields]) => {
      const { SiwePage, WalletKit } = window as unknown as {
        SiwePage: { signIn(p: unknown, n: string, f: object): Promise<SignIn> }
        WalletKit: typeof window.WalletKit
      }
      return SiwePage.signIn(WalletKit!.kit!.provider, nonce, fields)
    },
    [nonce, fields] as const,
  )
const freshNonce = () => `siwe${Math.random().toString(36).slice(2, 12)}`
const chain = createPublicClient({ transport: http(`${providerUrl}/rpc/31337`) })
const site = new URL(demoOrigin()).host

/** The test wallet (which knows no ERC-7846) connected through the modal, viem's sign-in page added. */
async function connectedBrowserWallet(page: Page) {
  await page.addInitScript({ content: testWallet })
  await page.goto('/demo/')
  const connecting = startRequest(page, 'eth_requestAccounts')
  await click(frameOf(page).getByRole('button', { name: 'Test Wallet' }))
  const { address } = await wallet(page)
  expect(await connecting).toEqual({ result: [address] })
  await page.addScriptTag({ content: siwePage })
  const asked = (await wallet(page)).calls.length
  /** What the wallet was asked since it connected. */
  const calls = async () => (await wallet(page)).calls.slice(asked)
  return { address, calls }
}

test('viem connect with signInWithEthereum through a browser wallet that knows no ERC-7846: the message names this site, the wallet signs it once, it verifies in the page and on the server; wallet_disconnect ends the connection', async ({
  page,
}) => {
  const { address, calls } = await connectedBrowserWallet(page)
  const nonce = freshNonce()
  const result = await signIn(page, nonce, { statement: 'Sign in to the demo' })
  expect(result.error).toBeUndefined()
  expect(result.address).toBe(address)
  expect(result.verified).toBe(true)
  expect(parseSiweMessage(result.message)).toMatchObject({ domain: site, uri: demoOrigin(), address, chainId: 31337, nonce, statement: 'Sign in to the demo' })
  // The wallet was asked wallet_connect (it knows none), its accounts, and one signature: the user's one confirmation.
  expect((await calls()).slice(0, 3)).toEqual(['wallet_connect', 'eth_accounts', 'personal_sign'])
  expect((await calls()).filter((m) => m === 'personal_sign')).toHaveLength(1)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()

  // The dapp's server: the same verifier, on the chain, with its own nonce and domain.
  const { message, signature } = result
  expect(await verifySiweMessage(chain, { message, signature, address, domain: site, nonce })).toBe(true)
  expect(await verifySiweMessage(chain, { message, signature, address, domain: site, nonce: freshNonce() })).toBe(false)
  expect(await verifySiweMessage(chain, { message, signature, address, domain: 'bank.example', nonce })).toBe(false)

  // ERC-7846 wallet_disconnect (viem's disconnect) ends the browser wallet's connection.
  expect(
    await page.evaluate(() => (window as unknown as { SiwePage: { signOut(p: unknown): Promise<unknown> } }).SiwePage.signOut(window.WalletKit!.kit!.provider)),
  ).toEqual([])
  await expect(page.getByTestId('account')).toHaveText('—')
  expect(await startRequest(page, 'personal_sign', ['0x6869', address])).toMatchObject({ code: 4100 })
})

test('a page asking a browser wallet to sign in for another site, on another origin, on a chain it is not offered or with a used nonce is refused -32602; the wallet is never asked to sign', async ({
  page,
}) => {
  const { calls } = await connectedBrowserWallet(page)
  const refused = { error: { code: -32602, name: 'InvalidParamsRpcError' } }
  for (const fields of [{ domain: 'bank.example' }, { uri: 'https://bank.example/login' }, { chainId: 1 }])
    expect(await signIn(page, freshNonce(), fields), JSON.stringify(fields)).toEqual(refused)
  expect(await calls()).not.toContain('personal_sign')

  const nonce = freshNonce()
  expect((await signIn(page, nonce)).verified).toBe(true)
  const signed = (await calls()).length
  expect(await signIn(page, nonce)).toEqual(refused)
  expect((await calls()).slice(signed)).not.toContain('personal_sign')
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
})

test('the user rejecting the sign-in in the browser wallet reaches the dapp as 4001', async ({ page }) => {
  await connectedBrowserWallet(page)
  await page.evaluate(() => (window as unknown as { testWallet: TestWallet }).testWallet.rejectNextSignature())
  expect(await signIn(page, freshNonce())).toEqual({ error: { code: 4001, name: 'UserRejectedRequestError' } })
})
