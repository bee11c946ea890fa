import { expect, type APIRequestContext, type CDPSession, type Locator, type Page } from '@playwright/test'
import { frameOf, latestCode, providerUrl, snap } from './helpers.ts'
import { click } from './click.ts'

// Passkeys in Chromium's tests: a virtual authenticator over the DevTools protocol, and the profile
// steps that add a passkey to the signed-in user.
/** A virtual authenticator on a page's DevTools target (Chromium). */
export type Authenticator = { cdp: CDPSession; authenticatorId: string }

/**
 * Adds a platform authenticator to `page` over the DevTools protocol: CTAP2, internal transport,
 * resident keys, user verification, presence given at once. Chromium finds it from any frame of the
 * page, the out-of-process wallet frame included; a popup is a page of its own and needs its own.
 */
export async function virtualAuthenticator(page: Page): Promise<Authenticator> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable', { enableUI: false })
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}

/** The credentials the authenticator holds now (their sign counts included). */
export const credentialsOf = async ({ cdp, authenticatorId }: Authenticator) => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials

/**
 * Adds a passkey to the signed-in user from the profile's Passkeys page, confirmed with the e-mail
 * code (a user with no passkey yet has no other factor), and leaves the profile on its menu.
 */
export async function addPasskeyInProfile(page: Page, request: APIRequestContext, email: string): Promise<void> {
  const frame = frameOf(page)
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  await click(frame.getByRole('button', { name: 'Passkeys' }))
  await click(frame.getByRole('button', { name: 'Add a passkey' }))
  // The address masked as the service shows it: its first letter, then the domain.
  await expect(frame.getByText(`We sent a 6-digit code to ${email[0]}•••@${email.split('@')[1]}`, { exact: false })).toBeVisible()
  await frame.getByLabel('Confirmation code').fill(await latestCode(request, email))
  await click(frame.getByRole('button', { name: 'Create the passkey' }))
  await expect(frame.getByText('Passkey added.')).toBeVisible()
  await click(frame.getByRole('button', { name: 'Back' }))
}

/**
 * Clicks `button`, which starts a step-up, and checks that the wallet service asked for the passkey:
 * the frame shows the passkey prompt with no code field (screenshot `screen`). Confirming is the
 * caller's next step.
 */
export async function expectPasskeyStepUp(page: Page, button: Locator, screen: string): Promise<void> {
  const frame = frameOf(page)
  const started = page.waitForResponse((r) => r.url() === `${providerUrl}/api/v2/auth/step-up/start`)
  await click(button)
  expect(((await (await started).json()) as { data: { factor: string } }).data.factor).toBe('passkey')
  await expect(frame.getByTestId('step-up-passkey')).toBeVisible()
  await expect(frame.getByLabel('Confirmation code')).toHaveCount(0)
  await snap(page, screen)
}
