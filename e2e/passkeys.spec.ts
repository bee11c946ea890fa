import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { axeViolations } from './axe.ts'
import { storedSession } from './bridge-recorder.ts'
import {
  closes,
  demoOrigin,
  frameOf,
  latestCode,
  openConnect,
  openSecureWindow,
  providerUrl,
  settled,
  signUpInFrame,
  signUpInSecureWindow,
  snap,
} from './helpers.ts'
import { credentialsOf, virtualAuthenticator } from './passkeys.ts'
import { click } from './click.ts'

// Passkeys in Chromium, on the DevTools protocol's virtual authenticator (a platform authenticator:
// CTAP2, internal transport, resident keys, user verification). The wallet frame is cross-origin
// (host 127.0.0.1, frame localhost): the authenticator is added on the page's target, and Chromium
// looks it up from any frame of that page, the out-of-process wallet frame included. Adding and
// removing a passkey each ask a step-up first: the code from the dev inbox while the user has no
// passkey, the passkey itself once they have one.

/** Serious and critical axe findings in the wallet frame. */
async function accessibilityIssues(page: Page): Promise<string[]> {
  await settled(page)
  const violations = await axeViolations(page, '[data-testid=wallet-kit-frame]')
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

/** The passkeys the service holds for the signed-in session of the page (read in the frame, as the frame reads them). */
async function passkeysOnService(page: Page): Promise<number> {
  const widget = page.frames().find((f) => f.url().startsWith(`${providerUrl}/widget/`))!
  const { token } = await storedSession(page)
  return widget.evaluate(async (token) => {
    const answer = await fetch('/api/v2/wallet/passkeys', {
      headers: { 'x-app-id': 'demo', 'x-environment': 'production', authorization: `Bearer ${token}` },
    })
    return ((await answer.json()) as { data: { passkeys: unknown[] } }).data.passkeys.length
  }, token)
}

const openPasskeys = async (page: Page) => {
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  await click(frameOf(page).getByRole('button', { name: 'Passkeys' }))
  await expect(frameOf(page).getByText('A passkey signs you in')).toBeVisible()
}

/** From the profile's passkeys page: back to the profile's home, then Disconnect Wallet. */
const disconnect = async (page: Page) => {
  await click(frameOf(page).getByRole('button', { name: 'Back' }))
  await click(frameOf(page).getByRole('button', { name: 'Disconnect Wallet' }))
  await expect(page.getByTestId('account')).toHaveText('—')
}

/** A new user signed up by e-mail in the demo page: their wallet's address and their e-mail address. */
async function signUp(page: Page, request: APIRequestContext) {
  await page.goto('/demo/')
  await openConnect(page)
  const email = await signUpInFrame(page, request)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  await expect(page.getByTestId('account')).toHaveText(/^0x[0-9a-fA-F]{40}$/)
  return { address: (await page.getByTestId('account').textContent()) as `0x${string}`, email }
}

/** Answers the confirmation the passkeys page asks (`why` names the change) with the code the dev inbox got. */
async function confirmWithCode(page: Page, request: APIRequestContext, email: string, why: RegExp) {
  const frame = frameOf(page)
  await expect(frame.getByTestId('passkey-confirm').getByText(why)).toBeVisible()
  await expect(frame.getByText(/We sent a 6-digit code to u•••@example\.com/)).toBeVisible()
  await frame.getByLabel('Confirmation code').fill(await latestCode(request, email))
}

/** Add a passkey: the code, then the browser's ceremony from its own click. */
async function addPasskey(page: Page, request: APIRequestContext, email: string) {
  await click(frameOf(page).getByRole('button', { name: 'Add a passkey' }))
  await confirmWithCode(page, request, email, /before adding one/)
  await click(frameOf(page).getByRole('button', { name: 'Create the passkey' }))
}

const passkeySignIn = async (page: Page) => {
  await openConnect(page)
  await click(frameOf(page).getByRole('button', { name: 'More Options' }))
  await click(frameOf(page).getByRole('button', { name: 'Sign in with a passkey' }))
}

test('a passkey added in the profile signs the same wallet in again; once removed it signs in no more', async ({ page, request }) => {
  const { address, email } = await signUp(page, request)
  const authenticator = await virtualAuthenticator(page)

  await openPasskeys(page)
  await expect(frameOf(page).getByText('No passkeys yet.')).toBeVisible()
  await snap(page, 'passkeys-empty')
  await click(frameOf(page).getByRole('button', { name: 'Add a passkey' }))
  await confirmWithCode(page, request, email, /before adding one/)
  await snap(page, 'passkeys-add-code')
  await expect(frameOf(page).getByTestId('passkey-confirmed')).toBeVisible()
  expect(await credentialsOf(authenticator)).toHaveLength(0)
  await click(frameOf(page).getByRole('button', { name: 'Create the passkey' }))
  await expect(frameOf(page).getByText('Passkey added.')).toBeVisible()
  await expect(frameOf(page).getByTestId('passkey-list').getByRole('listitem')).toHaveCount(1)
  await snap(page, 'passkeys-list')
  expect(await accessibilityIssues(page)).toEqual([])
  const made = await credentialsOf(authenticator)
  expect(made).toHaveLength(1)
  expect(made[0]).toMatchObject({ isResidentCredential: true, rpId: 'localhost' })
  expect(await passkeysOnService(page)).toBe(1)

  await disconnect(page)
  await passkeySignIn(page)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  await expect(page.getByTestId('account')).toHaveText(address)
  expect((await credentialsOf(authenticator))[0]!.signCount).toBe(made[0]!.signCount + 1)

  // Removed in the profile, confirmed with the passkey itself (the user has one: no code is sent):
  // the authenticator still holds it, the service no longer takes it.
  await openPasskeys(page)
  await click(frameOf(page).getByRole('button', { name: /^Remove / }))
  await expect(
    frameOf(page)
      .getByTestId('passkey-confirm')
      .getByText(/before removing the passkey/),
  ).toBeVisible()
  await expect(frameOf(page).getByLabel('Confirmation code')).toHaveCount(0)
  const signCount = (await credentialsOf(authenticator))[0]!.signCount
  await click(frameOf(page).getByRole('button', { name: 'Confirm with your passkey' }))
  await expect(frameOf(page).getByText('Passkey removed.')).toBeVisible()
  expect((await credentialsOf(authenticator))[0]!.signCount).toBe(signCount + 1)
  await expect(frameOf(page).getByText('No passkeys yet.')).toBeVisible()
  await disconnect(page)
  await passkeySignIn(page)
  await expect(frameOf(page).getByRole('alert').filter({ hasText: 'not registered' })).toBeVisible()
  await snap(page, 'passkeys-sign-in-refused')
  expect(await accessibilityIssues(page)).toEqual([])
  await expect(page.getByTestId('account')).toHaveText('—')
})

test('Cancel at the code, and a cancelled ceremony, say so and store nothing: adding without user verification, signing in with no passkey', async ({
  page,
  request,
}) => {
  const { email } = await signUp(page, request)
  const authenticator = await virtualAuthenticator(page)
  await authenticator.cdp.send('WebAuthn.setUserVerified', { authenticatorId: authenticator.authenticatorId, isUserVerified: false })

  await openPasskeys(page)
  await addPasskey(page, request, email)
  await expect(frameOf(page).getByRole('alert')).toHaveText('Adding a passkey was cancelled. Nothing was saved.')
  await snap(page, 'passkeys-add-cancelled')
  expect(await credentialsOf(authenticator)).toHaveLength(0)
  expect(await passkeysOnService(page)).toBe(0)
  await expect(frameOf(page).getByText('No passkeys yet.')).toBeVisible()

  // Cancel instead of the code (the last one was used, so a new one comes at once): back to the
  // list, nothing asked of the browser or stored.
  await click(frameOf(page).getByRole('button', { name: 'Add a passkey' }))
  await expect(frameOf(page).getByLabel('Confirmation code')).toBeVisible()
  await click(frameOf(page).getByRole('button', { name: 'Cancel' }))
  await expect(frameOf(page).getByText('No passkeys yet.')).toBeVisible()
  expect(await credentialsOf(authenticator)).toHaveLength(0)
  expect(await passkeysOnService(page)).toBe(0)

  await disconnect(page)
  await passkeySignIn(page)
  await expect(frameOf(page).getByRole('alert').filter({ hasText: 'Passkey sign-in was cancelled' })).toHaveText(
    'Passkey sign-in was cancelled. Nothing was changed.',
  )
  await snap(page, 'passkeys-sign-in-cancelled')
  await expect(page.getByTestId('account')).toHaveText('—')
})

test('a frame its page does not delegate passkeys to says so, instead of a cancel', async ({ page }) => {
  await page.goto('/demo/')
  await virtualAuthenticator(page)
  /** Asks the kit's frame for the chain: 'answered', or why the call failed. */
  const chainId = () =>
    page.evaluate(() =>
      window.WalletKit!.kit!.provider.request({ method: 'eth_chainId' }).then(
        () => 'answered',
        (e: Error) => e.message,
      ),
    )
  // The first frame is up (its handshake done) before the page reloads it: a reload in the middle
  // of the first handshake is another test.
  await expect.poll(chainId, { timeout: 30_000 }).toBe('answered')
  // The kit's frame as a page that drops its permissions policy would leave it: reloaded without the delegation.
  const reloaded = page.waitForEvent('framenavigated', (frame) => frame.url().includes('/widget/'))
  await page.evaluate(() => {
    const frame = document.querySelector<HTMLIFrameElement>('[data-testid=wallet-kit-frame]')!
    frame.allow = 'clipboard-write'
    frame.setAttribute('src', frame.getAttribute('src')!)
  })
  await reloaded
  // Until the new frame has shaken hands, a call can still go to the old one and be cancelled
  // ("the wallet frame reloaded"): asked again until the new frame answers.
  await expect.poll(chainId, { timeout: 30_000 }).toBe('answered')
  await passkeySignIn(page)
  await expect(frameOf(page).getByRole('alert').filter({ hasText: 'passkeys' })).toHaveText(
    'This browser does not allow passkeys inside this site’s wallet window: use the secure window, or another sign-in method.',
  )
  await expect(frameOf(page).getByRole('button', { name: 'Open secure window' })).toBeVisible()
  await snap(page, 'passkeys-frame-refused')
  await expect(page.getByTestId('account')).toHaveText('—')
})

test("mode 'popup': the passkey signs in in the secure window (a top-level page of the provider), which hands the session to the frame", async ({
  page,
  request,
  browser,
}) => {
  // The popup page's app: a passkey belongs to one app (and environment).
  await page.goto('/popup/')
  await click(page.getByTestId('connect'))
  const { address, email } = await signUpInSecureWindow(page, request)
  const first = await virtualAuthenticator(page)
  await openPasskeys(page)
  await addPasskey(page, request, email)
  await expect(frameOf(page).getByText('Passkey added.')).toBeVisible()
  const [credential] = await credentialsOf(first)

  // Another browser profile (nothing stored), whose page signs in through the secure window.
  const context = await browser.newContext()
  const other = await context.newPage()
  await other.goto(`${demoOrigin}/popup/`)
  await click(other.getByTestId('connect'))
  const popup = await openSecureWindow(other)
  // The same passkey on the window's own authenticator (each page is its own target).
  const inWindow = await virtualAuthenticator(popup)
  await inWindow.cdp.send('WebAuthn.addCredential', { authenticatorId: inWindow.authenticatorId, credential: credential! })
  await click(popup.getByRole('button', { name: 'More Options' }))
  await expect(popup.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible()
  await snap(popup, 'passkeys-secure-window')
  await click(popup.getByRole('button', { name: 'Sign in with a passkey' }))
  await closes(popup)
  await expect(other.getByTestId('account')).toHaveText(address)
  await context.close()
})
