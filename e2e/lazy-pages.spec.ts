import { expect, test } from '@playwright/test'
import { signUp } from './flows.ts'
import { frameOf, providerUrl, snap } from './helpers.ts'
import { click } from './click.ts'

/**
 * Every page but the connect home loads lazily (widget/lazy-route.ts). A page whose code cannot be
 * fetched (the network dropped it) says so in the modal instead of blanking the widget, and loads
 * when opened again.
 */
test('a page whose code cannot load shows "Something went wrong"; reopened once the network is back, it loads', async ({ page, request }) => {
  // Refused from the start, the background preload included.
  const chunk = `${providerUrl}/widget/assets/ProfileModal-*.js`
  await page.route(chunk, (route) => route.abort('internetdisconnected'))
  await signUp(page, request)
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await expect(frame.getByRole('alert').filter({ hasText: 'Something went wrong' })).toBeVisible()
  await snap(page, 'load-failed')
  await click(frame.getByRole('button', { name: 'Close' }))
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()

  await page.unroute(chunk)
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  await expect(frame.getByTestId('profile-address')).toBeVisible()
})
