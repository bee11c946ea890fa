import { readFile } from 'node:fs/promises'
import { expect, test, type Frame, type Page } from '@playwright/test'
import { signUp, startRequest } from './flows.ts'
import { frameOf, latestCode, openConnect, snap, uniqueEmail } from './helpers.ts'
import { click } from './click.ts'

// The modal's layout and closing rules, measured in the browser: a centred dialog at most 400 px wide (the
// login panel 450 px), a bottom sheet under 480 px, lists 350 px high with 40 px rows whose focus ring
// the list does not cut off; Escape and a click on the backdrop close the modal except while a
// confirmation is pending; the recovery file's name.

const widgetFrame = (page: Page): Frame => {
  const frame = page.frames().find((f) => f.url().includes('/widget/'))
  if (!frame) throw new Error('no wallet frame')
  return frame
}

/**
 * The open dialog as laid out: computed styles, and its box from offsets (layout, not the entry
 * animation's transform) inside the backdrop, which covers the frame, which covers the page.
 */
const dialogLayout = (page: Page) =>
  widgetFrame(page).evaluate(() => {
    const dialog = document.querySelector<HTMLElement>('[role=dialog]')!
    const style = getComputedStyle(dialog)
    return {
      width: style.width,
      bottomRadius: style.borderBottomLeftRadius,
      left: dialog.offsetLeft,
      right: innerWidth - dialog.offsetLeft - dialog.offsetWidth,
      top: dialog.offsetTop,
      bottom: innerHeight - dialog.offsetTop - dialog.offsetHeight,
      viewport: innerWidth,
    }
  })

/** The dialog's layout once the frame has taken the page's new width (a cross-origin frame resizes a moment later). */
async function layoutAt(page: Page, width: number) {
  await page.setViewportSize({ width, height: 800 })
  await expect.poll(() => dialogLayout(page).then((l) => l.viewport)).toBe(width)
  return dialogLayout(page)
}

/** A list box (role listbox, or a list of rows) and its rows, as computed. */
const listLayout = (page: Page, name: string) =>
  widgetFrame(page).evaluate((name) => {
    const list = document.querySelector<HTMLElement>(`[aria-label="${name}"]`)!
    const style = getComputedStyle(list)
    return {
      maxHeight: style.maxHeight,
      height: style.height,
      scrolls: list.scrollHeight > list.clientHeight && style.overflowY === 'auto',
      rows: [...list.querySelectorAll<HTMLElement>('[role=option]')].map((row) => getComputedStyle(row).height),
    }
  }, name)

/**
 * Tabs until keyboard focus is on the first row of the list named `name`, then measures that row's
 * focus ring: the row's box grown by outline width + offset, against the box the list clips to (it
 * scrolls, so it hides whatever is drawn outside its padding box). Each side is how far the ring
 * stays inside, in px: negative means part of the ring is cut off.
 */
async function firstRowRing(page: Page, name: string) {
  const frame = widgetFrame(page)
  const onFirstRow = () =>
    frame.evaluate((name) => document.activeElement === document.querySelector(`[aria-label="${name}"] [role=option], [aria-label="${name}"] button`), name)
  // At least one press: the page may have put focus on a row itself, which shows no ring.
  let presses = 0
  do {
    expect(presses++, `Tab never reached the first row of ${name}`).toBeLessThan(80)
    await page.keyboard.press('Tab')
  } while (!(await onFirstRow()))
  return frame.evaluate((name) => {
    const list = document.querySelector<HTMLElement>(`[aria-label="${name}"]`)!
    const row = document.activeElement as HTMLElement
    const style = getComputedStyle(row)
    const grow = Number.parseFloat(style.outlineWidth) + Number.parseFloat(style.outlineOffset)
    const ring = row.getBoundingClientRect()
    const box = list.getBoundingClientRect()
    const clip = { top: box.top + list.clientTop, left: box.left + list.clientLeft }
    return {
      focusVisible: row.matches(':focus-visible'),
      outline: `${style.outlineStyle} ${style.outlineWidth}`,
      scrollTop: list.scrollTop,
      top: ring.top - grow - clip.top,
      left: ring.left - grow - clip.left,
      right: clip.left + list.clientWidth - (ring.right + grow),
    }
  }, name)
}

/** The first row's ring is drawn and none of it is cut off by its list. */
async function expectRingInside(page: Page, name: string) {
  const ring = await firstRowRing(page, name)
  expect(ring, name).toMatchObject({ focusVisible: true, outline: 'solid 2px', scrollTop: 0 })
  for (const side of ['top', 'left', 'right'] as const) expect(ring[side], `${name}: the ring's ${side}`).toBeGreaterThanOrEqual(0)
}

test('a centred dialog: the login panel 450 px, other pages 400 px; under 480 px wide a bottom sheet', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/demo/')
  await openConnect(page)
  const frame = frameOf(page)
  await expect(frame.getByRole('heading', { name: 'Login or Sign Up' })).toBeVisible()
  const home = await dialogLayout(page)
  expect(home).toMatchObject({ width: '450px', left: (1280 - 450) / 2, right: (1280 - 450) / 2, bottomRadius: '16px' })
  expect(home.bottom).toBeGreaterThan(0)
  expect(Math.abs(home.top - home.bottom)).toBeLessThanOrEqual(1)
  await snap(page, 'layout-connect-home')

  await click(frame.getByRole('button', { name: 'More Options' }))
  await expect(frame.getByRole('heading', { name: 'Select Your Log In Method' })).toBeVisible()
  // (snap went to a phone's width and back)
  expect(await layoutAt(page, 1280)).toMatchObject({ width: '400px', left: 440, right: 440, bottomRadius: '16px' })

  // 480 px is not narrow: still a centred dialog, 16 px from each side at most.
  expect(await layoutAt(page, 480)).toMatchObject({ width: '400px', left: 40, right: 40, bottomRadius: '16px' })
  await click(frame.getByRole('button', { name: 'Back' }))
  await expect(frame.getByRole('heading', { name: 'Login or Sign Up' })).toBeVisible()
  expect(await dialogLayout(page)).toMatchObject({ width: '448px', left: 16, right: 16 })

  // Under 480 px: a sheet along the bottom edge, the whole width, square bottom corners.
  for (const width of [479, 390, 320]) {
    const sheet = await layoutAt(page, width)
    expect(sheet, `${width} px`).toMatchObject({ width: `${width}px`, left: 0, right: 0, bottom: 0, bottomRadius: '0px', viewport: width })
    expect(sheet.top).toBeGreaterThan(0)
  }
  await click(frame.getByRole('button', { name: 'More Options' }))
  expect(await dialogLayout(page)).toMatchObject({ width: '320px', left: 0, right: 0, bottom: 0 })
})

test("lists are 350 px high and scroll beyond; chain and currency rows are 40 px; a row's focus ring is not cut off by its list", async ({ page, request }) => {
  await signUp(page, request)
  const frame = frameOf(page)
  await page.evaluate(() => window.WalletKit!.kit!.open('chain'))
  await expect(frame.getByRole('heading', { name: 'Switch Chain' })).toBeVisible()
  const chains = await listLayout(page, 'Chains')
  expect(chains.maxHeight).toBe('350px')
  expect(chains.rows.length).toBeGreaterThanOrEqual(2)
  for (const row of chains.rows) expect(row).toBe('40px')
  await snap(page, 'layout-chain')
  await expectRingInside(page, 'Chains')
  await page.keyboard.press('Escape')
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()

  // More currencies than fit: the sandbox's list, and 30 more like its first.
  await page.context().route('**/v1/reference/currencies**', async (route) => {
    const response = await route.fetch()
    const body = (await response.json()) as { data: { id: string; currency: string }[] | { docs: { id: string; currency: string }[] } }
    const list = Array.isArray(body.data) ? body.data : body.data.docs
    const first = list[0]!
    for (let i = 0; i < 30; i++) list.push({ ...first, id: `X${String(i).padStart(2, '0')}`, currency: `X${String(i).padStart(2, '0')}` })
    await route.fulfill({ response, json: body })
  })
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  await click(frame.getByRole('button', { name: 'Buy' }))
  await expect(frame.getByRole('button', { name: 'Select currency' })).toHaveText(/IDR/)
  await click(frame.getByRole('button', { name: 'Select currency' }))
  await expect(frame.getByRole('listbox', { name: 'Select currency' })).toBeVisible()
  const currencies = await listLayout(page, 'Select currency')
  expect(currencies.rows.length).toBeGreaterThan(30)
  expect(currencies).toMatchObject({ maxHeight: '350px', height: '350px', scrolls: true })
  for (const row of currencies.rows) expect(row).toBe('40px')
  await snap(page, 'layout-select-currency')
  await expectRingInside(page, 'Select currency')
})

test('Escape and a click on the backdrop close the modal, and the next opening starts on home; a pending confirmation stays', async ({ page, request }) => {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/demo/')
  const frame = frameOf(page)
  const modal = page.getByTestId('wallet-kit-frame')
  for (const close of [() => page.keyboard.press('Escape'), () => page.mouse.click(20, 20)]) {
    await openConnect(page)
    await click(frame.getByRole('button', { name: 'More Options' }))
    await expect(frame.getByRole('heading', { name: 'Select Your Log In Method' })).toBeVisible()
    // A click inside the dialog is not one on the backdrop.
    await click(frame.getByRole('heading', { name: 'Select Your Log In Method' }))
    await expect(modal).toBeVisible()
    await close()
    await expect(modal).toBeHidden()
    await page.waitForTimeout(100) // past the 50 ms reset
    await openConnect(page)
    await expect(frame.getByRole('heading', { name: 'Login or Sign Up' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(modal).toBeHidden()
  }

  const address = await signUp(page, request)
  const pending = startRequest(page, 'personal_sign', ['0x6869', address])
  await expect(frame.getByRole('heading', { name: 'Sign Message' })).toBeVisible()
  await page.keyboard.press('Escape')
  await frame.getByTestId('confirm-message').press('Escape')
  await page.mouse.click(20, 20)
  await expect(frame.getByRole('button', { name: 'Close' })).toBeDisabled()
  await page.waitForTimeout(300)
  await expect(frame.getByRole('heading', { name: 'Sign Message' })).toBeVisible()
  await click(frame.getByRole('button', { name: 'Reject' }))
  expect(await pending).toMatchObject({ code: 4001 })
  await expect(modal).toBeHidden()
})

test("Download saves the recovery secret as 'wallet-recovery-secret.walletkit'", async ({ page, request }) => {
  await page.goto('/demo/')
  await openConnect(page)
  const frame = frameOf(page)
  const email = uniqueEmail()
  await frame.getByPlaceholder('Enter your email').fill(email)
  await click(frame.getByRole('button', { name: 'Continue', exact: true }))
  await frame.getByLabel('Verification code').fill(await latestCode(request, email))
  await expect(frame.getByRole('heading', { name: 'Wallet Created Successfully!' })).toBeVisible()
  const saving = page.waitForEvent('download')
  await click(frame.getByRole('button', { name: 'Download' }))
  const download = await saving
  expect(download.suggestedFilename()).toBe('wallet-recovery-secret.walletkit')
  const path = await download.path()
  expect((await readFile(path, 'utf8')).trim()).toMatch(/^0x[0-9a-f]{64,}$/i)
})
