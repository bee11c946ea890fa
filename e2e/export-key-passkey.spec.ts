import { expect, test } from '@playwright/test'
import { privateKeyToAddress } from 'viem/accounts'
import { frameOf, inboxSize, openConnect, providerUrl, signUpInFrame } from './helpers.ts'
import { addPasskeyInProfile, credentialsOf, expectPasskeyStepUp, virtualAuthenticator } from './passkeys.ts'
import { click } from './click.ts'

// Key export confirmed with a passkey, in Chromium on the DevTools protocol's virtual authenticator
// (CTAP2, internal transport, resident keys, user verification): a user adds a passkey in the
// profile (confirmed by the e-mail code, having no passkey yet), then exports the key confirming
// with that passkey: no code is sent, the secure window shows a key that derives the wallet.

test('a user with a passkey exports the key confirming with it: no e-mail code, and the key derives the wallet', async ({ page, request }) => {
  await page.goto('/demo/')
  await openConnect(page)
  const email = await signUpInFrame(page, request)
  await expect(page.getByTestId('account')).toHaveText(/^0x[0-9a-fA-F]{40}$/)
  const address = (await page.getByTestId('account').textContent()) as `0x${string}`
  const authenticator = await virtualAuthenticator(page)
  const frame = frameOf(page)

  // A passkey, added with the e-mail code (the user has no passkey to confirm with yet).
  await addPasskeyInProfile(page, request, email)
  expect(await credentialsOf(authenticator)).toHaveLength(1)

  // Export: the step-up asks the passkey, from a click of its own.
  await click(frame.getByRole('button', { name: 'Export private key' }))
  const mails = await inboxSize(request, email)
  await expectPasskeyStepUp(page, frame.getByRole('button', { name: 'Send a confirmation code' }), 'profile-export-key-passkey')
  const verified = page.waitForResponse((r) => r.url() === `${providerUrl}/api/v2/auth/step-up/verify`)
  await click(frame.getByRole('button', { name: 'Confirm with your passkey' }))
  expect((await verified).ok()).toBe(true)
  await expect(frame.getByTestId('export-key-ready')).toBeVisible()
  expect(await inboxSize(request, email)).toBe(mails)
  expect((await credentialsOf(authenticator))[0]!.signCount).toBeGreaterThan(0)

  const opened = page.waitForEvent('popup')
  await click(frame.getByRole('button', { name: 'Show the key in a secure window' }))
  const popup = await opened
  const response = await popup.waitForResponse((r) => r.url() === `${providerUrl}/api/v2/account/export-key`)
  expect(response.ok()).toBe(true)
  const key = ((await response.json()) as { data: { privateKey: `0x${string}` } }).data.privateKey
  expect(privateKeyToAddress(key)).toBe(address)
  await popup.close()
})
