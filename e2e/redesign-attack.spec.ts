import { expect, test, type Page } from '@playwright/test'
import { signUp, startRequest } from './flows.ts'
import { frameOf } from './helpers.ts'

/**
 * Red team (issue 23): the frame's UI now runs only when a modal first opens (or when idle), and the
 * host is told to show the frame once it has rendered. The host page ignores that: it shows the
 * frame's element itself from the start, rests the pointer where Confirm will be, asks for a
 * signature right after a reload (before the UI has mounted) and clicks there as fast as it can,
 * from the request until Confirm has been on screen for 400 ms. None of those clicks may sign.
 */
const frameElement = '[data-testid=wallet-kit-frame]'

/** Milliseconds since a Confirm button first appeared in the wallet frame (a MutationObserver there), or -1. */
const sinceConfirm = (page: Page): Promise<number> => {
  const frame = page.frames().find((f) => f.url().includes('/widget/'))
  if (!frame) return Promise.resolve(-1)
  return frame
    .evaluate(() => {
      const at = (window as { confirmAt?: number }).confirmAt
      return at ? Date.now() - at : -1
    })
    .catch(() => -1)
}

test('a signature asked before the UI mounts, with the frame forced visible and the Confirm spot clicked from the start: not signed', async ({
  page,
  request,
}) => {
  const address = await signUp(page, request)
  // Where Confirm shows for a message, learnt once (then answered 4001 by closing).
  const learning = startRequest(page, 'personal_sign', ['0x68656c6c6f', address])
  const confirm = frameOf(page).getByRole('button', { name: 'Confirm' })
  await expect(confirm).toBeVisible()
  const box = (await confirm.boundingBox())!
  const spot = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  await page.evaluate(() => window.WalletKit!.kit!.close())
  expect(await learning).toMatchObject({ code: 4001 })

  // In every wallet frame from now on: when a Confirm button first appears.
  await page.context().addInitScript(() => {
    if (!location.pathname.startsWith('/widget/')) return
    const marked = window as { confirmAt?: number; presses?: number; pressesBefore?: number }
    // Every press that reaches the frame, and how many came before Confirm was drawn.
    addEventListener(
      'pointerdown',
      () => {
        marked.presses = (marked.presses ?? 0) + 1
        if (!marked.confirmAt) marked.pressesBefore = (marked.pressesBefore ?? 0) + 1
      },
      true,
    )
    new MutationObserver(() => {
      if (marked.confirmAt) return
      if ([...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Confirm')) marked.confirmAt = Date.now()
    }).observe(document, { childList: true, subtree: true })
  })
  // A fresh page: the stored session answers at once, the UI has not run yet.
  await page.reload()
  // Shown as the kit shows it (a hidden frame is only display:none, so forcing display alone leaves
  // a small box at the page's end that the clicks would miss), before the kit shows anything.
  await page.addStyleTag({
    content: `${frameElement} { display: block !important; visibility: visible !important; opacity: 1 !important; position: fixed !important; inset: 0 !important; width: 100% !important; height: 100% !important; border: 0 !important; z-index: 2147483647 !important; }`,
  })
  await page.mouse.move(spot.x - 30, spot.y)
  await page.mouse.move(spot.x, spot.y, { steps: 3 })
  const uiBefore = await page
    .frames()
    .find((f) => f.url().includes('/widget/'))
    ?.evaluate(() => document.getElementById('root')?.childElementCount ?? 0)
    .catch(() => 0)
  test.info().annotations.push({ type: 'UI mounted before the request', description: String(!!uiBefore) })
  const signing = startRequest(page, 'personal_sign', ['0x68656c6c6f', address])
  const deadline = Date.now() + 15_000
  let clicksWhileShown = 0
  for (;;) {
    const since = await sinceConfirm(page)
    if (since > 400) break
    expect(Date.now(), 'Confirm never appeared').toBeLessThan(deadline)
    await page.mouse.click(spot.x, spot.y)
    if (since >= 0) clicksWhileShown++
  }
  expect(clicksWhileShown).toBeGreaterThan(3)
  // The clicks reached the frame, not the page under it.
  const presses = await page
    .frames()
    .find((f) => f.url().includes('/widget/'))!
    .evaluate(() => {
      const marked = window as { presses?: number; pressesBefore?: number }
      return { all: marked.presses ?? 0, beforeConfirm: marked.pressesBefore ?? 0 }
    })
  test.info().annotations.push({ type: 'presses in the frame before Confirm was drawn', description: String(presses.beforeConfirm) })
  expect(presses.all).toBeGreaterThan(3)
  // Whatever the clicks did, no signature came of them.
  const early = await Promise.race([signing, page.waitForTimeout(1_500).then(() => 'pending' as const)])
  expect(early).toBe('pending')
  await page.evaluate(() => window.WalletKit!.kit!.close())
  expect(await signing).toMatchObject({ code: 4001 })
})
