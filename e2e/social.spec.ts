import { expect, test, type Page } from '@playwright/test'
import { accounts, frameOf, latestCode, openConnect, snap } from './helpers.ts'
import { click } from './click.ts'

/** Opens the connect modal on the demo page and clicks one of the sign-in icons; returns its popup. */
async function startSocial(page: Page, label: string) {
  await page.goto('/demo/')
  await openConnect(page)
  const frame = frameOf(page)
  await expect(frame.getByRole('button', { name: `Continue with ${label}` })).toBeVisible()
  const popup = page.waitForEvent('popup')
  await click(frame.getByRole('button', { name: `Continue with ${label}` }))
  return { frame, popup: await popup }
}

async function expectNewWallet(page: Page) {
  const frame = frameOf(page)
  await expect(frame.getByRole('heading', { name: 'Wallet Created Successfully!' })).toBeVisible()
  await click(frame.getByRole('button', { name: 'Done' }))
  await expect(page.getByTestId('account')).toHaveText(/^0x[0-9a-fA-F]{40}$/)
  const address = await page.getByTestId('account').textContent()
  expect(await accounts(page)).toEqual([address])
}

test('the home page shows the enabled sign-in methods', async ({ page }) => {
  await page.goto('/demo/')
  await openConnect(page)
  const frame = frameOf(page)
  for (const label of ['Google', 'Apple', 'Telegram', 'Whatsapp']) await expect(frame.getByRole('button', { name: `Continue with ${label}` })).toBeVisible()
  await expect(frame.getByRole('separator')).toHaveText('OR')
  await snap(page, 'connect-home-social')
})

test('Google: the emulator signs a typed identity in, the widget exchanges the code, a wallet is created', async ({ page }) => {
  const { popup } = await startSocial(page, 'Google')
  await expect(popup.getByRole('heading', { name: 'Sign in with Google' })).toBeVisible()
  await popup.getByLabel('E-mail').fill(`google-${Date.now()}@example.com`)
  await popup.getByLabel('Name').fill('Gina Google')
  await click(popup.getByRole('button', { name: 'Continue', exact: true }))
  await expectNewWallet(page)
})

test('Apple: form_post with an identity token, verified by the service', async ({ page }) => {
  const { popup } = await startSocial(page, 'Apple')
  await popup.getByLabel('E-mail').fill(`apple-${Date.now()}@example.com`)
  await click(popup.getByRole('button', { name: 'Continue', exact: true }))
  await expectNewWallet(page)
})

test('Telegram: the login widget emulator returns signed user data', async ({ page }) => {
  const { popup } = await startSocial(page, 'Telegram')
  await popup.getByLabel('User id').fill(String(Date.now()).slice(-9))
  await popup.getByLabel('First name').fill('Tess')
  await click(popup.getByRole('button', { name: 'Log in' }))
  await expectNewWallet(page)
})

test('closing the sign-in window shows "Something went wrong" and leaves the modal usable', async ({ page }) => {
  const { frame, popup } = await startSocial(page, 'Google')
  await popup.close()
  await expect(frame.getByText('Something went wrong')).toBeVisible()
  await expect(frame.getByRole('button', { name: 'Continue with Google' })).toBeEnabled()
  expect(await accounts(page)).toEqual([])
})

test('WhatsApp: phone rules, code from the dev inbox, new wallet', async ({ page, request }) => {
  await page.goto('/demo/')
  await openConnect(page)
  const frame = frameOf(page)
  await click(frame.getByRole('button', { name: 'Continue with Whatsapp' }))
  await expect(frame.getByRole('heading', { name: 'Whatsapp Login' })).toBeVisible()
  await frame.getByLabel('Phone number').fill('0812345')
  await click(frame.getByRole('button', { name: 'Sign In' }))
  await expect(frame.getByText('Invalid phone number')).toBeVisible()
  await snap(page, 'connect-whatsapp')
  const phone = `62${String(Date.now()).slice(-10)}`
  await frame.getByLabel('Phone number').fill(phone)
  await click(frame.getByRole('button', { name: 'Sign In' }))
  await expect(frame.getByRole('heading', { name: 'OTP Verification' })).toBeVisible()
  await expect(frame.getByRole('button', { name: /Resend in (29\d|300)s/ })).toBeDisabled()
  await frame.getByLabel('Verification code').fill(await latestCode(request, phone))
  await expectNewWallet(page)
})
