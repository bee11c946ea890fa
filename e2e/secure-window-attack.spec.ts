import { expect, test } from '@playwright/test'
import { signUp, startRequest } from './flows.ts'
import { frameOf } from './helpers.ts'

/**
 * Attacks on the frame's Confirm gate (widget/ui/use-confirm-gate.ts) by the host page, in Chromium,
 * which has IntersectionObserver v2. Each test FAILS while the hole exists: the host gets a
 * signature the user did not knowingly give. (Covering part of the frame, e.g. the message but not
 * the buttons, is caught: Chromium reports the whole frame occluded. Not repeated here.)
 */

const frameElement = '[data-testid=wallet-kit-frame]'

/** Whether the request's answer arrived within `ms` (the signature, or an error), or it is still pending. */
const within = <T>(answer: Promise<T>, ms: number) => Promise.race([answer, new Promise<'pending'>((r) => setTimeout(() => r('pending'), ms))])

test('the host moves the frame while the pointer moves (no pause): Confirm must stay disabled for 500 ms after the move', async ({ page, request }) => {
  const address = await signUp(page, request)
  const frame = frameOf(page)
  const signing = startRequest(page, 'personal_sign', ['0x6869', address])
  const reject = frame.getByRole('button', { name: 'Reject', exact: true })
  const confirm = frame.getByRole('button', { name: 'Confirm', exact: true })
  // The user rests on Reject, about to refuse.
  await reject.hover()
  await expect(confirm).toBeEnabled()
  const r = (await reject.boundingBox())!
  const c = (await confirm.boundingBox())!
  let x = r.x + r.width / 2
  const y = r.y + r.height / 2
  const distance = c.x + c.width / 2 - x
  // Each step the pointer moves 10 px right on screen and the host moves the frame 15 px left: in the
  // frame the pointer travels 25 px, and the 15 px the screen did not see is within the gate's
  // tolerance (2 + 0.6 × 25). The Confirm button comes under the pointer; the user clicks.
  let shift = 0
  const steps = Math.ceil(distance / 25)
  for (let i = 0; i < steps; i++) {
    shift += 15
    await page.evaluate(
      ([selector, shift]) =>
        new Promise<void>((done) => {
          document.querySelector<HTMLIFrameElement>(selector as string)!.style.transform = `translate(${-shift}px, 0)`
          requestAnimationFrame(() => requestAnimationFrame(() => done()))
        }),
      [frameElement, shift] as const,
    )
    x += 10
    await page.mouse.move(x, y)
  }
  const movedAt = Date.now()
  await page.mouse.down()
  await page.mouse.up()
  const clickedAfter = Date.now() - movedAt
  const outcome = await within(signing, 1_500)
  expect(clickedAfter).toBeLessThan(500)
  expect(outcome, `the click ${clickedAfter} ms after the frame moved ${shift} px under the moving pointer was taken as Confirm`).toBe('pending')
})
