import { expect, type Locator } from '@playwright/test'

type ClickOptions = NonNullable<Parameters<Locator['click']>[0]>

/**
 * Clicks `target` as a person does: the pointer goes to it, and the click is sent once the target's
 * own document has seen the pointer over it (the target matches :hover there).
 *
 * Chromium routes mouse events to an out-of-process frame by the compositor's hit-test data, and that
 * data trails a layout change: just after the wallet frame is shown, hidden or moved, or the viewport
 * resized, a click aimed into the frame can go to the page beneath (or one aimed at the page into a
 * frame that just closed). CI lost such clicks on Continue, More Options, Close and Reject, each time
 * at a different place. Waiting at the target itself holds wherever the click is; a pointer that has
 * not reached it after a few seconds fails the test with that reason, not as a step that never came.
 *
 * Every click in the Chromium specs goes through here (the lint rule e2e/lint/raw-click.grit says so);
 * `page.mouse.click` stays for tests that aim at a point on purpose (clickjacking, a backdrop).
 */
export async function click(target: Locator, options: ClickOptions = {}): Promise<void> {
  if (!options.force && !options.trial) await pointerReaches(target, options)
  await target.click(options)
}

async function pointerReaches(target: Locator, options: ClickOptions): Promise<void> {
  const page = target.page()
  await target.hover({ position: options.position, modifiers: options.modifiers, timeout: options.timeout })
  let step = 0
  await expect
    .poll(
      async () => {
        const seen = await target.evaluate((element) => element.matches(':hover'), undefined, { timeout: 1000 }).catch(() => false)
        if (seen) return true
        // Not yet: the pointer moves by a pixel (a move to where it already is sends no event) and looks again.
        const box = await target.boundingBox()
        if (box) {
          step += 1
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
