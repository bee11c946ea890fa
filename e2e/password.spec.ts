import { expect, test, type Page } from '@playwright/test'
import { accounts, frameOf, snap } from './helpers.ts'
import { click } from './click.ts'

/**
 * Username and password: the connect home has the form but it is switched off unless the app turns it
 * on; both fields are required ('Please enter your username and password'); a sign-in whose answer is
 * 'username or password is incorrect' registers the same credentials instead. The demo app keeps the
 * form off; the seed app `passwords` turns it on (and shows its own logo: `useWalletKitBrand` off).
 */
const passwordsApp = 'passwords'

async function openConnect(page: Page, appId: string) {
  await page.goto('/demo/')
  await page.evaluate((appId) => {
    window.WalletKit!.kit!.destroy()
    return window.WalletKit!.createWalletKit({ appId, env: 'production' }).open('connect')
  }, appId)
  const frame = frameOf(page)
  await expect(frame.getByRole('heading', { name: 'Login or Sign Up' })).toBeVisible()
  return frame
}

test('the demo app leaves the form off: no fields, and its code is never fetched', async ({ page }) => {
  const fetched: string[] = []
  page.on('request', (r) => void (/PasswordForm/.test(r.url()) && fetched.push(r.url())))
  const frame = await openConnect(page, 'demo')
  await expect(frame.getByPlaceholder('Enter your email')).toBeVisible()
  await expect(frame.getByLabel('Username')).toHaveCount(0)
  await expect(frame.getByRole('img', { name: 'Wallet Kit' })).toBeVisible()
  expect(fetched).toEqual([])
})

test('an app that turns it on: both fields required, a new user signs up by signing in, then signs in to the same wallet', async ({ page }) => {
  const frame = await openConnect(page, passwordsApp)
  // Its own logo, not the provider's brand.
  await expect(frame.getByRole('img', { name: 'App logo' })).toBeVisible()
  await expect(frame.getByLabel('Username')).toBeVisible()
  await snap(page, 'connect-home-password')

  await frame.getByLabel('Username').fill('someone')
  await click(frame.getByRole('button', { name: 'Sign In' }))
  await expect(frame.getByText('Please enter your username and password')).toBeVisible()

  // 'username or password is incorrect' for a new name: the same credentials are registered.
  const username = `user_${Date.now()}`
  await frame.getByLabel('Password').fill('correct horse battery')
  await frame.getByLabel('Username').fill(username)
  await click(frame.getByRole('button', { name: 'Sign In' }))
  await expect(frame.getByRole('heading', { name: 'Wallet Created Successfully!' })).toBeVisible()
  await click(frame.getByRole('button', { name: 'Done' }))
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  await expect.poll(async () => ((await accounts(page)) as string[])[0] ?? '').toMatch(/^0x[0-9a-fA-F]{40}$/)
  const [address] = (await accounts(page)) as string[]

  await page.evaluate(() => window.WalletKit!.kit!.disconnect())
  await expect.poll(() => accounts(page)).toEqual([])

  // A wrong password for a taken name falls back to registering, which the service refuses; the form
  // says the login's answer, never that someone has that name, and registers nothing over it.
  await page.evaluate(() => window.WalletKit!.kit!.open('connect'))
  await frame.getByLabel('Username').fill(username)
  await frame.getByLabel('Password').fill('wrong horse battery')
  await click(frame.getByRole('button', { name: 'Sign In' }))
  await expect(frame.getByText('username or password is incorrect')).toBeVisible()
  await expect(frame.getByText('Username is already taken')).toHaveCount(0)
  await snap(page, 'connect-home-password-wrong')
  expect(await accounts(page)).toEqual([])

  await frame.getByLabel('Password').fill('correct horse battery')
  await click(frame.getByRole('button', { name: 'Sign In' }))
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  await expect.poll(() => accounts(page)).toEqual([address])
})
