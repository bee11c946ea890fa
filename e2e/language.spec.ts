import { expect, type Frame, type Page, test } from '@playwright/test'
import { frameOf, openConnect } from './helpers.ts'
import { click } from './click.ts'

// The frame in Indonesian: no aria-label and no visible line of the connect home and the wallet
// list is left in English (the component test widget/language.test.tsx walks every page).

/** The wallet frame (cross-origin) as a Frame, for evaluate. */
const widgetFrame = (page: Page): Frame => {
  const frame = page.frames().find((f) => f.url().includes('/widget/'))
  if (!frame) throw new Error('no wallet frame')
  return frame
}

/** What a page of the frame names and shows: its aria-labels, and its visible text line by line. */
const pageText = (frame: Frame) =>
  frame.evaluate(() => ({
    labels: [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label') ?? ''),
    // innerText, not textContent: the text as laid out and shown, without what CSS hides.
    // biome-ignore lint/performance/useDomNodeTextContent: the visible text is what this test reads
    lines: document.body.innerText
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  }))

/** The connect home (once its mobile wallets are in) and the wallet list, in the frame's language. */
async function connectPages(page: Page, words: { home: string; more: string; wallets: string }) {
  const frame = frameOf(page)
  await expect(frame.getByRole('dialog', { name: words.home })).toBeVisible()
  // No browser wallet on the demo page: the home's two places hold mobile wallets (loaded after it).
  await expect(frame.getByRole('button', { name: 'Coinbase Wallet' })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'MetaMask' })).toBeVisible()
  const home = await pageText(widgetFrame(page))
  await click(frame.getByRole('button', { name: words.more }))
  await expect(frame.getByRole('dialog', { name: words.wallets })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'WalletConnect' })).toBeVisible()
  return [home, await pageText(widgetFrame(page))]
}

test('aria labels and visible text are translated (Indonesian)', async ({ page }) => {
  await page.goto('/demo/')
  await expect(page.getByTestId('chain')).toHaveText('31337')
  await page.evaluate(() => {
    window.WalletKit!.kit!.destroy()
    return window.WalletKit!.createWalletKit({ appId: 'demo', env: 'production', locale: 'id' }).open('connect')
  })
  const indonesian = await connectPages(page, { home: 'Masuk atau Daftar', more: 'Opsi Lainnya', wallets: 'Pilih Metode Masuk Anda' })
  const english = await (async () => {
    const other = await page.context().newPage()
    await other.goto('/demo/')
    await expect(other.getByTestId('chain')).toHaveText('31337')
    await openConnect(other)
    const en = await connectPages(other, { home: 'Login or Sign Up', more: 'More Options', wallets: 'Select Your Log In Method' })
    await other.close()
    return en
  })()
  // Brand names such as Google, and the wallets' names, are the same in both.
  const brand =
    /^(Google|Apple|X|Telegram|Discord|WhatsApp|Test Wallet|MetaMask|Coinbase Wallet|Trust Wallet|Rainbow|Sandbox Wallet|WalletConnect|Wallet Kit)$/i
  for (const [i, id] of indonesian.entries()) {
    const en = english[i]!
    expect(id.labels.length).toBe(en.labels.length)
    // No label is left in English.
    expect(id.labels.filter((l, j) => l === en.labels[j] && !brand.test(l))).toEqual([])
    // Nor any text the page shows (words only: numbers and addresses read the same).
    const shownInEnglish = new Set(en.lines)
    expect(id.lines.filter((line) => shownInEnglish.has(line) && !brand.test(line) && /[A-Za-z]{3}/.test(line))).toEqual([])
  }
})
