import { expect, test, type Page } from '@playwright/test'
import { build } from 'vite'
import { verifyMessage } from 'viem'
import { startRequest } from './flows.ts'
import { frameOf, snap } from './helpers.ts'

/**
 * A browser wallet lives in the host page, never in the cross-origin wallet frame: the kit finds
 * it (EIP-6963), the modal lists it, and once chosen it answers in the top frame.
 */
let testWallet = ''
test.beforeAll(async () => {
  const result = (await build({
    configFile: false,
    logLevel: 'silent',
    build: { write: false, minify: false, lib: { entry: 'e2e/fixtures/wallet.fixture.ts', formats: ['iife'], name: 'TestWallet' } },
  })) as { output: { code: string }[] }[] | { output: { code: string }[] }
  testWallet = (Array.isArray(result) ? result[0]! : result).output[0]!.code
})

type TestWallet = { address: `0x${string}`; calls: string[]; disconnect(): void }
const wallet = (page: Page) => page.evaluate(() => (window as unknown as { testWallet: TestWallet }).testWallet)

test('an injected wallet is listed in the modal and, chosen, connects and signs in the top frame', async ({ page }) => {
  await page.addInitScript({ content: testWallet })
  await page.goto('/demo/')
  const { address } = await wallet(page)

  await page.getByRole('button', { name: 'Connect' }).click()
  const frame = frameOf(page)
  await expect(frame.getByRole('button', { name: 'Test Wallet' })).toBeVisible()
  await snap(page, 'connect-home-wallets')
  await frame.getByRole('button', { name: 'More Options' }).click()
  await expect(frame.getByRole('heading', { name: 'Select Your Log In Method' })).toBeVisible()
  await snap(page, 'connect-wallet')
  await frame.getByRole('button', { name: 'Test Wallet' }).click()

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
  await frameOf(page).getByRole('button', { name: 'Test Wallet' }).click()
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
  await page.getByRole('button', { name: 'Connect' }).click()
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
  await page.getByRole('button', { name: 'Connect' }).click()
  const frame = frameOf(page)
  const fromSite = frame.getByRole('group', { name: 'From this site' })
  await expect(fromSite.getByText('From this site', { exact: true })).toBeVisible()
  await expect(fromSite.getByRole('button', { name: 'Test Wallet' })).toBeVisible()
  await snap(page, 'connect-home-from-this-site')
  await frame.getByRole('button', { name: 'More Options' }).click()
  await expect(frame.getByRole('group', { name: 'From this site' }).getByRole('button', { name: 'Test Wallet' })).toBeVisible()
})

test('a wallet the page names after a sign-in method (Google, in Cyrillic letters too) is refused', async ({ page }) => {
  const warnings: string[] = []
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
  await page.addInitScript({ content: testWallet })
  await page.addInitScript({ content: announceFromPage('Google', 'com.google') })
  await page.addInitScript({ content: announceFromPage('G\u043e\u043egle', 'com.g00gle') }) // Cyrillic о
  await page.goto('/demo/')
  await page.getByRole('button', { name: 'Connect' }).click()
  const frame = frameOf(page)
  // The real wallet is there; neither "Google" is, on the home page or in the full list.
  await expect(frame.getByRole('group', { name: 'From this site' }).getByRole('button', { name: 'Test Wallet' })).toBeVisible()
  await frame.getByRole('button', { name: 'More Options' }).click()
  const listed = frame.getByRole('group', { name: 'From this site' }).getByRole('button')
  await expect(listed).toHaveCount(1)
  await expect(listed).toHaveAccessibleName('Test Wallet')
  await expect(frame.getByRole('button', { name: /g.{2}gle/i })).toHaveCount(0)
  await expect
    .poll(() => warnings.find((w) => w.includes('takes the name of the sign-in method Google')))
    .toContain('wallet-kit: refused wallet "Google" takes the name of the sign-in method Google')
})
