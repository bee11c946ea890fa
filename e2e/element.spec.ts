import { expect, test } from '@playwright/test'
import { confirmSignature, frameOf, logInInFrame, providerUrl } from './helpers.ts'
import { click } from './click.ts'

test('<wallet-kit> in a page without React: connect, short address and balance, events, .provider, profile', async ({ page, request }) => {
  const scripts: string[] = []
  page.on('request', (r) => r.resourceType() === 'script' && r.frame() === page.mainFrame() && scripts.push(r.url()))
  await page.goto('/element/')
  const element = page.locator('wallet-kit')
  const button = element.getByRole('button', { name: 'Connect' })
  await expect(button).toBeVisible()
  // Styles stay in the shadow root; the page has no React.
  expect(
    await page.evaluate(() => ({
      react: 'React' in window,
      shadowStyles: document.querySelector('wallet-kit')!.shadowRoot!.querySelectorAll('style').length,
      pageStyles: document.querySelectorAll('style').length,
    })),
  ).toEqual({ react: false, shadowStyles: 1, pageStyles: 0 })
  expect(scripts).toEqual([`${providerUrl}/kit.js`])

  await click(button)
  await logInInFrame(page, request)
  const connected = element.getByRole('button', { name: /^0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}/ })
  await expect(connected).toContainText(/ETH$/)
  const address = (
    await page.evaluate(() =>
      (document.querySelector('wallet-kit') as HTMLElement & { provider: { request(a: unknown): Promise<string[]> } }).provider.request({
        method: 'eth_accounts',
      }),
    )
  )[0]!
  await expect(connected).toContainText(`${address.slice(0, 6)}…${address.slice(-4)}`)
  await expect(page.getByTestId('events')).toContainText('connect {"chainId":"0x7a69"}')
  await expect(page.getByTestId('events')).toContainText(`accountschanged ["${address}"]`)

  // .provider is the page's one EIP-1193 provider; signing shows the confirmation modal.
  type WithProvider = HTMLElement & { provider: { request(r: unknown): Promise<string> } }
  expect(await page.evaluate(() => (document.querySelector('wallet-kit') as WithProvider).provider === (window.WalletKit!.kit!.provider as unknown))).toBe(true)
  const signed = page.evaluate(
    (a) => (document.querySelector('wallet-kit') as WithProvider).provider.request({ method: 'personal_sign', params: ['0x6869', a] }),
    address,
  )
  await confirmSignature(page)
  expect(await signed).toMatch(/^0x[0-9a-f]{130}$/)

  await click(connected)
  await expect(frameOf(page).getByRole('dialog', { name: 'Personal Wallet' })).toBeVisible()
  await click(frameOf(page).getByRole('button', { name: 'Disconnect Wallet' }))
  await expect(element.getByRole('button', { name: 'Connect' })).toBeVisible()
  await expect(page.getByTestId('events')).toContainText('accountschanged []')
})

test('<wallet-kit theme="light" locale="id"> follows its attributes', async ({ page }) => {
  await page.goto('/element/')
  await page.evaluate(() => {
    const el = document.querySelector('wallet-kit')!
    el.setAttribute('theme', 'light')
    el.setAttribute('locale', 'id')
  })
  const button = page.locator('wallet-kit').getByRole('button', { name: 'Hubungkan' })
  await expect(button).toHaveAttribute('data-theme', 'light')
  expect(await button.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(255, 255, 255)')
})

test('<wallet-kit> made the way frameworks make it (created, attributes set one by one, then added): the kit gets every attribute', async ({ page }) => {
  // A page with kit.js and no element yet: Vue, Angular, Svelte and Lit create the element, set
  // its attributes one at a time, and only then put it in the page.
  await page.goto('/no-such-page')
  await page.addScriptTag({ url: `${providerUrl}/kit.js` })
  await page.evaluate(() => {
    const el = document.createElement('wallet-kit')
    el.setAttribute('theme', 'light')
    el.setAttribute('app-id', 'demo')
    el.setAttribute('locale', 'id')
    el.id = 'framework-made'
    document.body.append(el)
  })
  const button = page.locator('#framework-made').getByRole('button', { name: 'Hubungkan' })
  await expect(button).toBeEnabled()
  await expect(button).toHaveAttribute('data-theme', 'light')
  await click(button)
  await expect(page.locator('iframe[src*="/widget/"]')).toHaveAttribute('src', /[?&]theme=light(&|$)/)
})
