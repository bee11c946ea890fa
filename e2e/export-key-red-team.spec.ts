import { expect, test, type Page } from '@playwright/test'
import { accounts, frameOf, latestCode, logInInFrame, pressConfirm, providerUrl } from './helpers.ts'
import { click } from './click.ts'

/**
 * Red team, key export in a real browser: the host page runs a click-spam game. The user's pointer
 * rests where the frame's 'Show the key in a secure window' was, and keeps clicking as the secure
 * window opens over it and its Copy button appears under the pointer. A Copy taken that way would put
 * the key on the clipboard for the page's next 'paste your code here'. The window's buttons take no
 * click until the hand moved in it.
 */

const exportUrl = `${providerUrl}/api/v2/account/export-key`

/** Every text the window's page hands to the clipboard from now on. */
const recordCopies = () => {
  const copied: string[] = []
  ;(window as unknown as { copied: string[] }).copied = copied
  const write = navigator.clipboard.writeText.bind(navigator.clipboard)
  navigator.clipboard.writeText = (text: string) => {
    copied.push(text)
    return write(text).catch(() => {})
  }
}
const copies = (popup: Page) => popup.evaluate(() => (window as unknown as { copied?: string[] }).copied ?? null)

function loginEmail(page: Page): () => string {
  let email = ''
  page.on('request', (r) => {
    if (r.url() === `${providerUrl}/api/v2/auth/login-otp`) email = new URLSearchParams(r.postData() ?? '').get('email') ?? email
  })
  return () => email
}

test('a click-spam game: clicks landing on the opening window copy and reveal nothing; a deliberate move then copies', async ({ page, request }) => {
  const email = loginEmail(page)
  await page.goto('/demo/')
  await page.evaluate(() => window.WalletKit!.kit!.open('connect'))
  await logInInFrame(page, request)
  expect(((await accounts(page)) as string[])[0]).toMatch(/^0x[0-9a-fA-F]{40}$/)
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await click(frame.getByRole('button', { name: 'Export private key' }))
  await click(frame.getByRole('button', { name: 'Send a confirmation code' }))
  await expect(frame.getByText(/We sent a 6-digit code/)).toBeVisible()
  await frame.getByLabel('Confirmation code').fill(await latestCode(request, email()))
  await expect(frame.getByTestId('export-key-ready')).toBeVisible()

  const opened = page.waitForEvent('popup')
  await click(frame.getByRole('button', { name: 'Show the key in a secure window' }))
  const popup = await opened
  // Recorded from before any click can land (the clicks below all come after this).
  await popup.evaluate(recordCopies)
  expect(await copies(popup)).toEqual([])
  const answered = popup.waitForResponse((r) => r.url() === exportUrl)
  const key = ((await (await answered).json()) as { data: { privateKey: string } }).data.privateKey
  expect(key).toMatch(/^0x[0-9a-f]{64}$/)
  const copy = popup.getByRole('button', { name: 'Copy' })
  const reveal = popup.getByRole('button', { name: 'Reveal' })
  await expect(copy).toBeVisible()
  // The game: the pointer stays put over where Copy appeared, clicking on and on. Only one spot: going
  // on to Reveal would move the hand in the window, which the gate rightly reads as a person's move
  // (CI saw Reveal then answer, after the move). Resting clicks on Reveal are refused in the unit
  // tests (KeyView.red-team.test.tsx).
  await expect(reveal).toBeVisible()
  const box = (await copy.boundingBox())!
  for (let i = 0; i < 16; i++) {
    await popup.mouse.click(box.x + box.width / 2, box.y + box.height / 2)
    await popup.waitForTimeout(150)
  }
  expect(await copies(popup)).toEqual([])
  await expect(popup.getByTestId('export-key-value')).not.toContainText(key.slice(2))

  // The same buttons answer a hand that moved in the window: the game, not the user, was refused.
  await pressConfirm(copy)
  await expect.poll(() => copies(popup)).toEqual([key])
})
