import { expect, type Locator } from '@playwright/test'

type ClickOptions = NonNullable<Parameters<Locator['click']>[0]>

/**
 * Clicks `target` as a person does: the pointer goes to it, and the click is sent once the target's
 * own document has seen the pointer over it (the target matches :hover there).
 *
 * Chromium routes mouse events to an out-of-process frame (the wallet frame) by hit-test data kept in
 * the browser process, and that data can go stale after a layout change: after a screenshot at a
 * phone's width and back, the frame's region stayed 390 px wide, and a click at x = 641 went to the
 * host page's <iframe> element, not into the frame (seen with a listener on each side, about 1 resize
 * in 100 on a busy machine). CI lost clicks so on Continue, More Options, Close and Reject. Moving
 * the pointer again does not renew that data, nor does a repaint of either page; a resize does. So
 * the pointer moves a pixel at a time, and if the target has still not seen it after half a second
 * the viewport shrinks by a pixel and comes back, once. A pointer that has not reached the target
 * after that fails the test with that reason, never a click sent blind.
 *
 * Every locator click in the Chromium specs goes through here (the lint rule e2e/lint/raw-click.grit
 * says so); `page.mouse.click` stays for tests that aim at a point on purpose (clickjacking, a backdrop).
 */
export async function click(target: Locator, options: ClickOptions = {}): Promise<void> {
  if (!options.force && !options.trial) await pointerReaches(target, options)
  await target.click(options)
}

/** Puts the pointer on `target` and waits until the target's document sees it there (see click()). */
export async function pointerReaches(target: Locator, options: Pick<ClickOptions, 'position' | 'modifiers' | 'timeout'> = {}): Promise<void> {
  const page = target.page()
  await target.hover({ position: options.position, modifiers: options.modifiers, timeout: options.timeout })
  let step = 0
  let renewed = false
  await expect
    .poll(
      async () => {
        const seen = await target.evaluate((element) => element.matches(':hover'), undefined, { timeout: 1000 }).catch(() => false)
        if (seen) return true
        step += 1
        const size = page.viewportSize()
        if (step >= 10 && !renewed && size) {
          // Half a second of moves went unseen: the browser's routing is stale; a resize renews it.
          renewed = true
          await page.setViewportSize({ width: size.width, height: size.height - 1 })
          await page.setViewportSize(size)
        }
        // A move to where the pointer already is sends no event: it moves by a pixel each time.
        const box = await target.boundingBox()
        if (box) {
          const x = box.x + (options.position?.x ?? box.width / 2) + (step % 2 ? 1 : -1)
          const y = box.y + (options.position?.y ?? box.height / 2)
          await page.mouse.move(x, y)
        }
        return false
      },
      { message: `the pointer over ${target} never reached its document`, intervals: [50], timeout: options.timeout ?? 5000 },
    )
    .toBe(true)
}
