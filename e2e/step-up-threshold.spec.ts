import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test'
import { parseEther, toHex } from 'viem'
import { startRequest } from './flows.ts'
import { accounts, confirmRequest, frameOf, inboxSize, latestCode, openSecureWindow, pressConfirm, signUpInFrame, snap } from './helpers.ts'
import { addPasskeyInProfile, credentialsOf, expectPasskeyStepUp, virtualAuthenticator } from './passkeys.ts'
import { click } from './click.ts'

const to = '0x000000000000000000000000000000000000bEEF'

/** Confirms a transaction in the frame or the secure window, whichever this browser offers; the code step follows in the frame. */
async function confirmUntilCode(page: Page) {
  const frame = frameOf(page)
  const confirm = frame.getByRole('button', { name: 'Confirm' })
  await expect(confirm.or(frame.getByRole('button', { name: 'Open secure window' }))).toBeVisible()
  if (await confirm.isVisible()) await pressConfirm(confirm)
  else await pressConfirm((await openSecureWindow(page)).getByRole('button', { name: 'Confirm' }))
  const step = frame.getByTestId('confirm-step-up')
  // The code is read from the inbox only once it was sent (before that the inbox holds the login's).
  await expect(step.getByText(/We sent a 6-digit code/)).toBeVisible()
  return step.getByLabel('Confirmation code')
}

/** A new user signed up in the frame on the demo page; the frame closed again. Their e-mail address. */
async function signUp(page: Page, request: APIRequestContext): Promise<string> {
  await page.goto('/demo/')
  await page.evaluate(() => window.WalletKit!.kit!.open('connect'))
  const email = await signUpInFrame(page, request)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  return email
}

/** The profile's Security page, opened; Local Chain 1's row. */
async function securityRow(page: Page) {
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  await click(frameOf(page).getByRole('button', { name: 'Security' }))
  return frameOf(page).getByTestId('security-31337')
}

/** Saves `amount` as the user's own (stricter than none: saved at once). */
async function saveStricter(row: Locator, amount: string) {
  await row.getByLabel('Your amount (ETH)').fill(amount)
  await click(row.getByRole('button', { name: 'Save' }))
  await expect(row.getByText(`Asks a confirmation above ${amount} ETH`)).toBeVisible()
}

// The profile's Security page against the real sandbox: the seeded 'demo' app asks no code, the user
// sets their own amount on Local Chain 1 (stricter: saved at once), then raises it (looser: the
// e-mail code first, then saved).

test('a stricter amount saves at once; a higher one asks the code first, then saves', async ({ page, request }) => {
  const email = await signUp(page, request)
  const row = await securityRow(page)
  const frame = frameOf(page)
  await expect(row.getByText('Never asks a confirmation')).toBeVisible()
  await snap(page, 'profile-security')

  await saveStricter(row, '0.001')
  await expect(frame.getByRole('status')).toHaveText('Saved.')

  await row.getByLabel('Your amount (ETH)').fill('1')
  await click(row.getByRole('button', { name: 'Save' }))
  await expect(frame.getByText('This lets more through without a second confirmation, so confirm it is you first.')).toBeVisible()
  await snap(page, 'profile-security-code')
  await frame.getByLabel('Confirmation code').fill(await latestCode(request, email))
  await expect(frame.getByTestId('security-31337').getByText('Asks a confirmation above 1 ETH')).toBeVisible()
})

test("the user's own amount holds on sends in an app that asks no code: below it goes, above it asks the code", async ({ page, request }) => {
  const email = await signUp(page, request)
  const from = ((await accounts(page)) as string[])[0]!
  await saveStricter(await securityRow(page), '0.001')
  await page.evaluate(() => window.WalletKit!.kit!.close())

  const small = startRequest(page, 'eth_sendTransaction', [{ from, to, value: toHex(parseEther('0.0005')) }])
  await confirmRequest(page)
  expect((await small).result).toMatch(/^0x[0-9a-f]{64}$/)

  const large = startRequest(page, 'eth_sendTransaction', [{ from, to, value: toHex(parseEther('0.002')) }])
  const code = await confirmUntilCode(page)
  await code.fill(await latestCode(request, email))
  expect((await large).result).toMatch(/^0x[0-9a-f]{64}$/)
})

test('a user with a passkey raises the amount confirming with the passkey: no e-mail code is sent', async ({ page, request }) => {
  const email = await signUp(page, request)
  const authenticator = await virtualAuthenticator(page)
  await addPasskeyInProfile(page, request, email)
  const row = await securityRow(page)
  const frame = frameOf(page)
  await saveStricter(row, '0.001')
  const mails = await inboxSize(request, email)

  await row.getByLabel('Your amount (ETH)').fill('1')
  await expectPasskeyStepUp(page, row.getByRole('button', { name: 'Save' }), 'profile-security-passkey')
  const signCount = (await credentialsOf(authenticator))[0]!.signCount
  await click(frame.getByRole('button', { name: 'Confirm with your passkey' }))
  await expect(frame.getByTestId('security-31337').getByText('Asks a confirmation above 1 ETH')).toBeVisible()
  expect((await credentialsOf(authenticator))[0]!.signCount).toBe(signCount + 1)
  expect(await inboxSize(request, email)).toBe(mails)
})
