// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { badgeChecksMs, badgeChecksStopMs, guardBadges } from './badge-guard.ts'

// Password-manager badges are looked for at 0, 2 and 5 s and no more after 6 s;
// one found over the field makes the field pad that side, so typed text is never under it.

const box = (left: number, top: number, width: number, height: number) => () => new DOMRect(left, top, width, height)

let input: HTMLInputElement
beforeEach(() => {
  vi.useFakeTimers()
  document.body.innerHTML = '<div class="wk-stack"><label class="wk-sr-only" for="f">Email</label><input id="f" class="wk-input"></div>'
  input = document.querySelector('input')!
  input.getBoundingClientRect = box(0, 0, 300, 40)
  document.querySelector('label')!.getBoundingClientRect = box(0, 0, 1, 1)
})
afterEach(() => vi.useRealTimers())

/** A password manager's badge, as they inject them: its own element, absolutely positioned over the field. */
function injectBadge(left: number, width: number, where: Element = input.parentElement!) {
  const badge = document.createElement('div')
  badge.setAttribute('data-lastpass-icon-root', '')
  badge.style.position = 'absolute'
  badge.getBoundingClientRect = box(left, 8, width, 24)
  where.append(badge)
  return badge
}

test('checks at 0, 2 and 5 s, stopping at 6 s', () => {
  expect([badgeChecksMs, badgeChecksStopMs]).toEqual([[0, 2000, 5000], 6000])
})

test('a badge injected after the first check is found at 2 s and the field makes room at its end', () => {
  guardBadges(input)
  vi.advanceTimersByTime(0)
  expect(input.style.paddingRight).toBe('')
  vi.advanceTimersByTime(1000)
  injectBadge(266, 24)
  vi.advanceTimersByTime(999)
  expect(input.style.paddingRight).toBe('')
  vi.advanceTimersByTime(1)
  // 300 - 266 = 34 px under the badge, plus the gap.
  expect(input.style.paddingRight).toBe('40px')
})

test('a badge at the start pads the start; one appended to the body (fixed) counts too; a wide one gets half the field at most', () => {
  guardBadges(input)
  const badge = injectBadge(0, 30, document.body)
  badge.style.position = 'fixed'
  injectBadge(100, 200)
  vi.advanceTimersByTime(0)
  expect(input.style.paddingLeft).toBe('36px')
  expect(input.style.paddingRight).toBe('156px')
})

test("the widget's own positioned elements, elements away from the field and static ones are not badges", () => {
  guardBadges(input)
  const ours = injectBadge(270, 20)
  ours.className = 'wk-spinner'
  injectBadge(400, 20)
  const inline = injectBadge(270, 20)
  inline.style.position = 'static'
  vi.advanceTimersByTime(badgeChecksStopMs)
  expect([input.style.paddingLeft, input.style.paddingRight]).toEqual(['', ''])
})

test('the last check is at 5 s: a badge injected later is left alone, and nothing is still scheduled after 6 s', () => {
  guardBadges(input)
  vi.advanceTimersByTime(5000)
  expect(input.style.paddingRight).toBe('')
  injectBadge(266, 24)
  vi.advanceTimersByTime(1000)
  expect(vi.getTimerCount()).toBe(0)
  vi.advanceTimersByTime(60_000)
  expect(input.style.paddingRight).toBe('')
})

test('unmounting stops the checks at once', () => {
  const stop = guardBadges(input)
  stop()
  injectBadge(266, 24)
  vi.advanceTimersByTime(badgeChecksStopMs)
  expect(input.style.paddingRight).toBe('')
  expect(vi.getTimerCount()).toBe(0)
})

test('timed from when the field showed: a guard that starts 2.5 s late checks at once and at 5 s, not at 2 s again', () => {
  const shown = Date.now()
  vi.advanceTimersByTime(2500)
  guardBadges(input, shown)
  injectBadge(266, 24)
  vi.advanceTimersByTime(0)
  expect(input.style.paddingRight).toBe('40px')
  expect(vi.getTimerCount()).toBe(2)
})
