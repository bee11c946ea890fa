import { expect, test, type APIRequestContext, type Frame, type Page } from '@playwright/test'
import { axeViolations } from './axe.ts'
import { startRequest } from './flows.ts'
import { closes, confirmRequest, frameOf, latestCode, openSecureWindow, pressConfirm, providerUrl, settled, uniqueEmail } from './helpers.ts'
import { click } from './click.ts'

/** The wallet frame (cross-origin) as a Frame, for evaluate. */
const widgetFrame = (page: Page): Frame => {
  const frame = page.frames().find((f) => f.url().includes('/widget/'))
  if (!frame) throw new Error('no wallet frame')
  return frame
}

/**
 * Runs axe in the wallet frame (or, `window`, on the whole secure window); reports serious and
 * critical violations (soft, so that every page is seen).
 */
async function audit(page: Page, name: string, { window = false } = {}): Promise<void> {
  // Colours are read at full opacity, once the page's entrance has ended.
  await settled(page)
  const violations = await axeViolations(page, window ? undefined : '[data-testid=wallet-kit-frame]')
  const bad = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}${v.nodes[0]?.failureSummary ? ` — ${v.nodes[0].failureSummary.replace(/\s+/g, ' ')}` : ''}`,
    )
  expect.soft(bad, `axe on ${name}`).toEqual([])
}

/** A new kit with `theme` (in `mode: 'popup'` when asked: sign-ins and confirmations in the secure window), `modal` open on it. */
const newKit = (page: Page, theme: 'dark' | 'light', modal: 'connect' | 'profile' = 'connect', mode: 'frame' | 'popup' = 'frame') =>
  page.evaluate(
    ([theme, modal, mode]) => {
      window.WalletKit!.kit!.destroy()
      return window.WalletKit!.createWalletKit({ appId: 'demo', env: 'production', theme, mode }).open(modal)
    },
    [theme, modal, mode] as const,
  )

/** The demo page with a new kit in `theme`, the connect modal open on it. */
async function openConnect(page: Page, theme: 'dark' | 'light'): Promise<void> {
  await page.goto('/demo/')
  await expect(page.getByTestId('chain')).toHaveText('31337')
  await newKit(page, theme)
}

async function login(page: Page, request: APIRequestContext, theme: string): Promise<void> {
  const frame = frameOf(page)
  await expect(frame.getByRole('heading', { name: 'Login or Sign Up' })).toBeVisible()
  await audit(page, `connect home (${theme})`)

  await click(frame.getByRole('button', { name: 'More Options' }))
  await expect(frame.getByRole('heading', { name: 'Select Your Log In Method' })).toBeVisible()
  await audit(page, `wallet list (${theme})`)
  await click(frame.getByRole('button', { name: 'Back' }))

  const email = uniqueEmail()
  await frame.getByPlaceholder('Enter your email').fill(email)
  await click(frame.getByRole('button', { name: 'Continue', exact: true }))
  await expect(frame.getByRole('heading', { name: 'OTP Verification' })).toBeVisible()
  await audit(page, `OTP (${theme})`)

  await frame.getByLabel('Verification code').fill(await latestCode(request, email))
  await expect(frame.getByRole('heading', { name: 'Wallet Created Successfully!' })).toBeVisible()
  await audit(page, `wallet created (${theme})`)
  await click(frame.getByRole('button', { name: 'Done' }))
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
}

for (const theme of ['dark', 'light'] as const) {
  test(`axe: no serious or critical violation on any modal page (${theme})`, async ({ page, request }) => {
    await openConnect(page, theme)
    expect(await widgetFrame(page).evaluate(() => document.documentElement.dataset.theme)).toBe(theme)
    const frame = frameOf(page)
    // An invalid e-mail shows its error line on home.
    await frame.getByPlaceholder('Enter your email').fill('nope')
    await click(frame.getByRole('button', { name: 'Continue', exact: true }))
    await expect(frame.getByText('Invalid email')).toBeVisible()
    await audit(page, `connect home with error (${theme})`)
    await frame.getByPlaceholder('Enter your email').fill('')
    await login(page, request, theme)

    await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
    await expect(frame.getByTestId('profile-balance')).toHaveText(/ETH$/)
    await audit(page, `profile home (${theme})`)
    await click(frame.getByRole('button', { name: 'Receive' }))
    await expect(frame.getByRole('img', { name: /^QR code of / })).toBeVisible()
    await audit(page, `receive (${theme})`)
    await click(frame.getByRole('button', { name: 'Back' }))
    await click(frame.getByRole('button', { name: 'Switch chain' }))
    await expect(frame.getByRole('listbox', { name: 'Chains' })).toBeVisible()
    await audit(page, `profile chain list (${theme})`)
    await click(frame.getByRole('button', { name: 'Back' }))
    await click(frame.getByRole('button', { name: 'Buy' }))
    await expect(frame.getByRole('heading', { name: 'Buy' })).toBeVisible()
    await frame.getByLabel('You pay').fill('150000')
    await expect(frame.getByTestId('quote-receive')).toHaveText(/ETH/)
    await audit(page, `buy (${theme})`)
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()

    await page.evaluate(() => window.WalletKit!.kit!.open('chain'))
    await expect(frame.getByRole('heading', { name: 'Switch Chain' })).toBeVisible()
    await audit(page, `chain modal (${theme})`)
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()

    const address = ((await page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_accounts' }))) as string[])[0]
    const pending = startRequest(page, 'personal_sign', ['0x68656c6c6f20776f726c64', address])
    await expect(frame.getByRole('heading', { name: 'Sign Message' })).toBeVisible()
    await expect(frame.getByRole('button', { name: 'Confirm' })).toBeVisible()
    await audit(page, `sign message confirmation (${theme})`)
    await click(frame.getByRole('button', { name: 'Reject' }))
    expect(await pending).toMatchObject({ code: 4001 })
  })
}

for (const theme of ['dark', 'light'] as const) {
  test(`axe: QR code, WhatsApp, the secure window, the select lists, a transaction and need-permission (${theme})`, async ({ page, request }) => {
    await openConnect(page, theme)
    const frame = frameOf(page)
    await click(frame.getByRole('button', { name: 'More Options' }))
    await click(frame.getByRole('button', { name: 'Sandbox Wallet' }))
    await expect(frame.getByRole('heading', { name: 'Scan QR Code' })).toBeVisible()
    await expect(frame.getByRole('img', { name: /QR/ })).toBeVisible()
    await expect(frame.getByTestId('open-in-browser')).toBeVisible()
    await audit(page, `QR code (${theme})`)
    await click(frame.getByRole('button', { name: 'Back' }))
    await click(frame.getByRole('button', { name: 'Back' }))

    await click(frame.getByRole('button', { name: 'Continue with Whatsapp' }))
    await expect(frame.getByRole('heading', { name: 'Whatsapp Login' })).toBeVisible()
    await audit(page, `WhatsApp (${theme})`)
    await frame.getByLabel('Phone number').fill('0812345')
    await click(frame.getByRole('button', { name: 'Sign In' }))
    await expect(frame.getByText('Invalid phone number')).toBeVisible()
    await audit(page, `WhatsApp with error (${theme})`)
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()

    // The secure window: the frame's offer, then the window's own pages (sign-in, a signature).
    await newKit(page, theme, 'connect', 'popup')
    await expect(frame.getByTestId('secure-window')).toBeVisible()
    await audit(page, `connect home, sign-in in the secure window (${theme})`)
    const signIn = await openSecureWindow(page)
    expect(await signIn.evaluate(() => document.documentElement.dataset.theme)).toBe(theme)
    await expect(signIn.getByRole('heading', { name: 'Login or Sign Up' })).toBeVisible()
    await audit(signIn, `secure window: connect home (${theme})`, { window: true })
    const email = uniqueEmail()
    await signIn.getByPlaceholder('Enter your email').fill(email)
    await click(signIn.getByRole('button', { name: 'Continue', exact: true }))
    await expect(signIn.getByRole('heading', { name: 'OTP Verification' })).toBeVisible()
    await audit(signIn, `secure window: OTP (${theme})`, { window: true })
    await signIn.getByLabel('Verification code').fill(await latestCode(request, email))
    await expect(signIn.getByRole('heading', { name: 'Wallet Created Successfully!' })).toBeVisible()
    await audit(signIn, `secure window: wallet created (${theme})`, { window: true })
    await click(signIn.getByRole('button', { name: 'Done' }))
    await closes(signIn)
    const address = ((await page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_accounts' }))) as string[])[0]!

    const signing = startRequest(page, 'personal_sign', ['0x68656c6c6f', address])
    await expect(frame.getByTestId('confirm-message')).toHaveText('hello')
    await audit(page, `sign message, confirm in the secure window (${theme})`)
    const confirmWindow = await openSecureWindow(page)
    await expect(confirmWindow.getByRole('heading', { name: 'Sign Message' })).toBeVisible()
    await expect(confirmWindow.getByRole('button', { name: 'Confirm' })).toBeVisible()
    await audit(confirmWindow, `secure window: sign message (${theme})`, { window: true })
    await pressConfirm(confirmWindow.getByRole('button', { name: 'Confirm' }))
    expect((await signing).result).toMatch(/^0x[0-9a-f]{130}$/)

    // Back in the frame (the session stays): the Buy page's lists, a transaction, need-permission.
    await newKit(page, theme, 'profile')
    await click(frame.getByRole('button', { name: 'Buy' }))
    await expect(frame.getByRole('button', { name: 'Select currency' })).toHaveText(/IDR/)
    await click(frame.getByRole('button', { name: 'Select currency' }))
    await expect(frame.getByRole('listbox', { name: 'Select currency' })).toBeVisible()
    await audit(page, `select currency (${theme})`)
    await click(frame.getByRole('option', { name: /IDR/ }))
    await click(frame.getByRole('button', { name: 'Select crypto' }))
    await expect(frame.getByRole('listbox', { name: 'Select crypto' })).toBeVisible()
    await audit(page, `select crypto (${theme})`)
    await page.keyboard.press('Escape')
    await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()

    const sending = startRequest(page, 'eth_sendTransaction', [{ from: address, to: address, value: '0x1' }])
    await expect(frame.getByRole('heading', { name: 'Confirm Transaction' })).toBeVisible()
    await expect(frame.getByTestId('confirm-fee')).toBeVisible()
    await audit(page, `transaction confirmation (${theme})`)
    await click(frame.getByRole('button', { name: 'Reject' }))
    expect(await sending).toMatchObject({ code: 4001 })

    expect((await request.post(`${providerUrl}/dev/api/wallets/${address}/permission`, { data: { granted: false } })).ok()).toBe(true)
    const refused = startRequest(page, 'personal_sign', ['0x6869', address])
    await confirmRequest(page)
    expect(await refused).toMatchObject({ code: 4100 })
    await expect(frame.getByRole('heading', { name: 'Permission needed' })).toBeVisible()
    await audit(page, `need permission (${theme})`)
  })
}

/** What has focus in the wallet frame: its name, whether it is in the dialog, and its focus ring. */
const focused = (page: Page) =>
  widgetFrame(page).evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    const dialog = document.querySelector('[role=dialog]')
    const style = el ? getComputedStyle(el) : undefined
    const ring = !!style && ((style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none')
    return {
      name: el ? `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.getAttribute('placeholder') ?? el.textContent?.trim() ?? ''}` : 'none',
      inDialog: !!el && !!dialog?.contains(el) && el !== dialog,
      focusVisible: !!el?.matches(':focus-visible'),
      ring,
      frameHasFocus: document.hasFocus(),
    }
  })

test('keyboard: the dialog is named by its title, focus is trapped and visible, Escape closes and gives focus back', async ({ page }) => {
  await page.goto('/demo/')
  await expect(page.getByTestId('chain')).toHaveText('31337')
  const opener = page.getByRole('button', { name: 'Connect' })
  await opener.focus()
  await page.keyboard.press('Enter')
  const frame = frameOf(page)
  const dialog = frame.getByRole('dialog')
  await expect(dialog).toBeVisible()

  // Labelled by its visible title.
  const labelledBy = await dialog.getAttribute('aria-labelledby')
  expect(labelledBy).toBeTruthy()
  expect(await frame.locator(`[id="${labelledBy}"]`).textContent()).toBe('Login or Sign Up')
  await expect(frame.getByRole('dialog', { name: 'Login or Sign Up' })).toBeVisible()

  // Tab forwards and backwards: focus stays in the dialog, every stop shows a ring.
  const seen = new Set<string>()
  for (const key of [...Array(14).fill('Tab'), ...Array(14).fill('Shift+Tab')]) {
    await page.keyboard.press(key)
    const now = await focused(page)
    expect(now, `after ${key}`).toMatchObject({ inDialog: true, frameHasFocus: true, focusVisible: true, ring: true })
    seen.add(now.name)
  }
  // Every control of home was reached (close, socials/wallets, More Options, e-mail, Continue).
  expect([...seen].some((n) => n.includes('Close'))).toBe(true)
  expect([...seen].some((n) => n.includes('More Options'))).toBe(true)
  expect([...seen].some((n) => n.includes('Enter your email'))).toBe(true)
  expect([...seen].some((n) => n.includes('Continue'))).toBe(true)

  // Operable: Enter on More Options opens the wallet list; the dialog's name follows the page.
  while (!(await focused(page)).name.includes('More Options')) await page.keyboard.press('Tab')
  await page.keyboard.press('Enter')
  await expect(frame.getByRole('dialog', { name: 'Select Your Log In Method' })).toBeVisible()
  expect((await focused(page)).inDialog).toBe(true)

  // Escape closes; focus is back on the opener.
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  await expect(opener).toBeFocused()
})
