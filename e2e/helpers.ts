import { expect, type APIRequestContext, type FrameLocator, type Locator, type Page } from '@playwright/test'

export const providerUrl = 'http://localhost:8787'
export const frameOf = (page: Page): FrameLocator => page.frameLocator('[data-testid=wallet-kit-frame]')

/** One screenshot per modal page, at desktop width and at a 390 px phone width. */
export async function snap(page: Page, name: string): Promise<void> {
  const desktop = page.viewportSize() ?? { width: 1280, height: 720 }
  await page.waitForTimeout(250) // let the page transition settle
  await page.screenshot({ path: `test-results/screens/${name}-desktop.png` })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.waitForTimeout(250)
  await page.screenshot({ path: `test-results/screens/${name}-phone.png` })
  await page.setViewportSize(desktop)
}

/** The newest login code the sandbox's dev inbox holds for `to`. */
export async function latestCode(request: APIRequestContext, to: string): Promise<string> {
  let code: string | undefined
  await expect
    .poll(async () => {
      const res = await request.get(`${providerUrl}/dev/api/inbox?to=${encodeURIComponent(to)}`)
      const messages = (await res.json()) as { code: string }[]
      code = messages[0]?.code
      return code
    })
    .toMatch(/^\d{6}$/)
  return code!
}

export const uniqueEmail = () => `user-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

export async function accounts(page: Page): Promise<unknown> {
  return page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_accounts' }))
}

/** Logs a new user in through the connect modal that is already open (e-mail code, new wallet, Done). */
export async function logInInFrame(page: Page, request: APIRequestContext): Promise<void> {
  const frame = frameOf(page)
  const email = uniqueEmail()
  await frame.getByPlaceholder('Enter your email').fill(email)
  await frame.getByRole('button', { name: 'Continue', exact: true }).click()
  await frame.getByLabel('Verification code').fill(await latestCode(request, email))
  await frame.getByRole('button', { name: 'Done' }).click()
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
}

/**
 * Clicks Confirm as a person does: the pointer comes into the frame and rests on the button until it
 * is armed (the gate disarms it for 500 ms after the pointer comes in from outside, so that a frame
 * moved under a waiting pointer cannot take its click: widget/ui/use-confirm-gate.ts), then clicks.
 */
export async function pressConfirm(button: Locator): Promise<void> {
  await button.hover()
  await expect(button).toBeEnabled()
  await button.click()
}

/** Confirms the signing request the widget is showing (title 'Sign Message'). */
export async function confirmSignature(page: Page): Promise<void> {
  const frame = frameOf(page)
  await expect(frame.getByRole('heading', { name: 'Sign Message' })).toBeVisible()
  await pressConfirm(frame.getByRole('button', { name: 'Confirm' }))
}
