// Password managers (1Password, LastPass, Bitwarden, Dashlane…) inject a badge into e-mail and code
// fields: an element of their own, positioned over the field's end, sometimes wide enough to cover
// what the user types. We check for them at 0, 2 and 5 s and stop at 6 s: managers
// inject late, and a field that stays clear for 6 s is left alone. A badge is kept, not removed (it
// is the user's tool); the field makes room beside it, up to half its width.

/** When the checks run (0, 2 and 5 s from the field's first showing) and when they stop (6 s). */
export const badgeChecksMs = [0, 2000, 5000] as const
export const badgeChecksStopMs = 6000

/** Room left between a badge and the text, in CSS pixels. */
const gapPx = 6

/** Every element of the widget carries a wk- class; an injected one does not. */
const ours = (el: Element) => Array.from(el.classList).some((name) => name.startsWith('wk-'))

/** Elements someone else put over `input`: positioned, not ours, not the field or what holds it, overlapping its box. */
export function findBadges(input: HTMLElement): Element[] {
  const box = input.getBoundingClientRect()
  const view = input.ownerDocument.defaultView
  if (!view || box.width === 0) return []
  return Array.from(input.ownerDocument.body.querySelectorAll('*')).filter((el) => {
    if (el === input || el.contains(input) || ours(el)) return false
    const { position } = view.getComputedStyle(el)
    if (position !== 'absolute' && position !== 'fixed') return false
    const r = el.getBoundingClientRect()
    return r.width > 0 && r.height > 0 && r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top
  })
}

/** Pads the field's side that a badge covers, so no text goes under it; the field keeps at least half its width. */
export function makeRoom(input: HTMLElement): void {
  const box = input.getBoundingClientRect()
  let right = 0
  let left = 0
  for (const badge of findBadges(input)) {
    const r = badge.getBoundingClientRect()
    if (r.left + r.width / 2 >= box.left + box.width / 2) right = Math.max(right, box.right - Math.max(r.left, box.left))
    else left = Math.max(left, Math.min(r.right, box.right) - box.left)
  }
  const half = box.width / 2
  if (right > 0) input.style.paddingRight = `${Math.ceil(Math.min(right, half)) + gapPx}px`
  if (left > 0) input.style.paddingLeft = `${Math.ceil(Math.min(left, half)) + gapPx}px`
}

/** Runs the checks on `input`, timed from `since` (when it showed); returns the way to stop them early (unmount). */
export function guardBadges(input: HTMLElement, since = Date.now()): () => void {
  const elapsed = Date.now() - since
  const timers = badgeChecksMs.filter((ms) => ms >= elapsed || ms === 0).map((ms) => setTimeout(() => makeRoom(input), Math.max(0, ms - elapsed)))
  const stop = () => {
    for (const timer of timers) clearTimeout(timer)
    clearTimeout(end)
  }
  const end = setTimeout(stop, Math.max(0, badgeChecksStopMs - elapsed))
  return stop
}
