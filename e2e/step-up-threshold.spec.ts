import { expect, test } from '@playwright/test'
import { frameOf, latestCode, signUpInFrame, snap } from './helpers.ts'

// The profile's Security page against the real sandbox: the seeded 'demo' app asks no code, the user
// sets their own amount on Local Chain 1 (stricter: saved at once), then raises it (looser: the
// e-mail code first, then saved).

test('a stricter amount saves at once; a higher one asks the code first, then saves', async ({ page, request }) => {
  await page.goto('/demo/')
  await page.evaluate(() => window.WalletKit!.kit!.open('connect'))
  const email = await signUpInFrame(page, request)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await frame.getByRole('button', { name: 'Security' }).click()
  const row = frame.getByTestId('security-31337')
  await expect(row.getByText('Never asks a code')).toBeVisible()
  await snap(page, 'profile-security')

  await row.getByLabel('Your amount (ETH)').fill('0.001')
  await row.getByRole('button', { name: 'Save' }).click()
  await expect(row.getByText('Asks a code above 0.001 ETH')).toBeVisible()
  await expect(frame.getByRole('status')).toHaveText('Saved.')

  await row.getByLabel('Your amount (ETH)').fill('1')
  await row.getByRole('button', { name: 'Save' }).click()
  await expect(frame.getByText('This lets more through without a code, so confirm it is you first.')).toBeVisible()
  await snap(page, 'profile-security-code')
  await frame.getByLabel('Confirmation code').fill(await latestCode(request, email))
  await expect(frame.getByTestId('security-31337').getByText('Asks a code above 1 ETH')).toBeVisible()
})
