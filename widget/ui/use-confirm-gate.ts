import { useCallback, useEffect, useRef, useState, type RefObject } from 'react'
import { flushSync } from 'react-dom'
import { obscuredGraceMs, visibleSettleMs } from '../constants.ts'

type V2Entry = IntersectionObserverEntry & { isVisible?: boolean }

/**
 * - `clear`: Confirm may be clicked.
 * - `arming`: not yet (just shown, moved, resized, or the pointer just came in): Confirm is disabled.
 * - `unsafe`: this frame cannot prove the user sees it (no IntersectionObserver v2, or it reports the
 *   frame covered or transparent): Confirm belongs in the secure window.
 */
export type GateState = 'clear' | 'arming' | 'unsafe'

export type Gate = {
  /** For Confirm. */
  state: GateState
  /**
   * For the offer of the secure window: the timing rules alone (shown, moved, resized, the pointer
   * came in, 500 ms ago), which hold in every engine. Its click opens a window, not a signature, but
   * it must not be the first click of a double-click game either.
   */
  settled: boolean
  /** Decided at the click from what is known at that moment, not from the last render. */
  allows(): boolean
  /** `settled`, decided at the click. */
  settledNow(): boolean
}

export const hasIntersectionObserverV2 = (): boolean => typeof IntersectionObserverEntry !== 'undefined' && 'isVisible' in IntersectionObserverEntry.prototype

/**
 * The page's zoom as pointer events see it: screen pixels per CSS pixel of this frame. It starts as
 * `devicePixelRatio` (right at any zoom on a screen of scale 1) and is learned only from a run of
 * `zoomRun` moves that all agree on another ratio: a zoom changes rarely, and a host page that
 * moves the frame now and then (it cannot see the pointer inside the frame to keep in step with it)
 * never makes such a run, so it can neither teach a wrong zoom nor hide its moves in a tolerance.
 */
const zoom = { ratio: typeof devicePixelRatio === 'number' && devicePixelRatio > 0 ? devicePixelRatio : 1, run: [] as { screen: number; client: number }[] }
const zoomRun = 8

/** Rounding of fractional screen and client coordinates: a pixel each, plus 5 % of the travel. */
const off = (screen: number, client: number, ratio: number) => Math.abs(screen - ratio * client) > 2 + 0.05 * Math.abs(screen)

/** Whether, along one axis, what is under the pointer moved by more than the pointer's own travel shows. */
function moved(screen: number, client: number): boolean {
  if (Math.abs(screen) >= 4 && Math.abs(client) >= 4 && Math.sign(screen) === Math.sign(client)) {
    const run = zoom.run
    const first = run[0]
    if (first && off(screen, client, first.screen / first.client)) run.length = 0
    run.push({ screen, client })
    if (run.length >= zoomRun) {
      zoom.ratio = run.reduce((n, m) => n + m.screen, 0) / run.reduce((n, m) => n + m.client, 0)
      run.length = 0
    }
  }
  return off(screen, client, zoom.ratio)
}

/** For tests: forget what was learned of the zoom. */
export function resetZoom(ratio = 1): void {
  zoom.ratio = ratio
  zoom.run.length = 0
}

/** How long after a re-arm the render that shows Confirm disabled may come (a frame or two on a busy machine). */
const renderMarginMs = 50

/** How far the pointer must travel in the secure window before its Confirm takes a click (CSS px). */
const deliberateTravel = 8

/** The smallest scale (screen pixels per CSS pixel) at which the frame's dialog counts as readable. */
const readableScale = 0.75

/**
 * Whether this frame is drawn at about its own size. CSS `zoom` on the iframe element (not a
 * transform, so IntersectionObserver v2 calls the frame visible) draws the whole dialog at 30 %, its
 * text a few pixels high; Chromium reports it in `devicePixelRatio` (which a screen of scale 2 can
 * hide: the pointer's screen-to-client travel, `zoom.ratio`, is learned as it moves). A page the
 * user zoomed out that far goes to the secure window as well.
 */
const fullSize = () => devicePixelRatio >= readableScale && zoom.ratio >= readableScale

/**
 * Whether the whole dialog can be on screen in this document: inside the viewport, and not scrolled
 * (a frame too small for the dialog scrolls it, and then the buttons can be in view while the
 * request is not). The message box's own scroll is the user's to read at their pace: not counted.
 */
export function dialogFits(el: HTMLElement | null): boolean {
  const dialog = el?.closest<HTMLElement>('[role=dialog]') ?? el
  if (!dialog || !fullSize()) return false
  const box = dialog.getBoundingClientRect()
  const root = document.scrollingElement ?? document.documentElement
  return (
    box.top >= -1 &&
    box.left >= -1 &&
    box.bottom <= innerHeight + 1 &&
    box.right <= innerWidth + 1 &&
    dialog.scrollHeight <= dialog.clientHeight + 1 &&
    dialog.scrollWidth <= dialog.clientWidth + 1 &&
    root.scrollHeight <= root.clientHeight + 1 &&
    root.scrollWidth <= root.clientWidth + 1
  )
}

/**
 * The Confirm gate. In the wallet frame the host page owns the iframe element: it can make it
 * transparent, cover it, crop it, shrink it, or move it under the user's pointer between two clicks.
 * So Confirm is enabled only `visibleSettleMs` after the last of these: the request was shown;
 * IntersectionObserver v2 reported the WHOLE dialog (`ref`'s dialog, not one row of it) visible,
 * unobscured and inside the frame's viewport (which catches clip-path's box and a frame too small for
 * the dialog); the frame's size changed; the pointer came in from outside; the content under the
 * pointer shifted more than the pointer moved (the frame moved). Without IntersectionObserver v2
 * (Firefox, Safari), or when the dialog does not fit, the frame is `unsafe`. What no engine lets a
 * frame see (a mask on its element, a clip-path with holes) is why only plain-text messages are ever
 * confirmed in the frame (confirm/presentation.ts confirmableInFrame): everything that moves value goes to the window.
 *
 * In the secure window (`presentation: 'window'`), a first-party top-level window no host page can
 * style, the timing rules apply, and Confirm also waits for a deliberate interaction inside the
 * window since it was last shown or focused: the pointer travelling, or a focus key. A window that
 * opens under a clicking pointer (a double-click game) therefore never takes that click.
 */
export function useConfirmGate(ref: RefObject<HTMLElement | null>, key: unknown, presentation: 'frame' | 'window'): Gate {
  const [state, setState] = useState<{ key: unknown; state: GateState; settled: boolean }>({ key, state: 'arming', settled: false })
  const current = useRef<GateState>('arming')
  const armedAt = useRef(0)
  const gestured = useRef(presentation === 'frame')

  useEffect(() => {
    let settled = false
    const set = (next: GateState) => {
      current.current = next
      setState({ key, state: next, settled })
    }
    const el = ref.current
    const provable = presentation === 'window' || hasIntersectionObserverV2()
    let visible = presentation === 'window'
    let covered = !provable
    let timed = false
    let settle: ReturnType<typeof setTimeout> | undefined
    let grace: ReturnType<typeof setTimeout> | undefined
    const decide = () => set(covered ? 'unsafe' : visible && timed && gestured.current ? 'clear' : 'arming')
    const rearm = () => {
      armedAt.current = performance.now()
      clearTimeout(settle)
      timed = settled = false
      if (presentation === 'window') gestured.current = false
      decide()
      // The disabled button reaches the screen a render after this: the margin keeps it there for
      // the whole 500 ms (allows() still counts from here, so a click is judged the same).
      settle = setTimeout(() => {
        timed = settled = true
        decide()
      }, visibleSettleMs + renderMarginMs)
    }
    rearm()

    // The frame moved: the part of the pointer's travel in the page that the screen did not see.
    let last: { sx: number; sy: number; cx: number; cy: number } | null = null
    // The window: where the pointer was first seen since the last arming, to measure its travel.
    let origin: { x: number; y: number } | null = null
    const onPointer = (e: PointerEvent) => {
      const at = { sx: e.screenX, sy: e.screenY, cx: e.clientX, cy: e.clientY }
      const cameIn = e.type === 'pointerover' && e.relatedTarget === null
      const shifted = last !== null && (moved(at.sx - last.sx, at.cx - last.cx) || moved(at.sy - last.sy, at.cy - last.cy))
      last = at
      // Disabled on screen before this event's click can land (a continuous event's render would come later).
      if (cameIn || shifted) {
        flushSync(rearm)
        origin = null
      }
      if (presentation !== 'window' || gestured.current || e.type !== 'pointermove') return
      if (!origin) origin = { x: e.clientX, y: e.clientY }
      else if (Math.hypot(e.clientX - origin.x, e.clientY - origin.y) >= deliberateTravel) {
        gestured.current = true
        decide()
      }
    }
    const onLeave = (e: PointerEvent) => {
      if (e.relatedTarget === null) last = null
    }
    const onKey = (e: KeyboardEvent) => {
      // Moving the focus is deliberate; Enter or Space alone is what a game would ask for.
      if (presentation !== 'window' || gestured.current || !/^(Tab|Arrow)/.test(e.key)) return
      gestured.current = true
      decide()
    }
    // The window lost and regained the user (another window came over it, or it was just raised).
    const onFocusChange = () => {
      origin = null
      flushSync(rearm)
    }
    for (const type of ['pointerover', 'pointermove', 'pointerdown'] as const) window.addEventListener(type, onPointer, true)
    window.addEventListener('pointerout', onLeave, true)
    window.addEventListener('keydown', onKey, true)
    if (presentation === 'window') {
      window.addEventListener('focus', onFocusChange)
      window.addEventListener('blur', onFocusChange)
      document.addEventListener('visibilitychange', onFocusChange)
    }
    const resize = new ResizeObserver(() => {
      rearm()
      check()
    })
    resize.observe(document.documentElement)

    let observer: IntersectionObserver | undefined
    const dialog = el?.closest<HTMLElement>('[role=dialog]') ?? el
    // What IntersectionObserver last said of the dialog; its fit is read again on every scroll and resize.
    let reported = false
    const seenNow = (seen: boolean) => {
      if (!seen) return lost()
      clearTimeout(grace)
      visible = true
      covered = false
      rearm()
    }
    const check = () => {
      if (presentation !== 'frame' || !provable) return
      const seen = reported && dialogFits(el)
      if (seen !== visible) seenNow(seen)
    }
    // Not visible: disarmed at once; a lasting report (a modal still fading in is briefly "not
    // visible") means covered.
    const lost = () => {
      visible = false
      clearTimeout(grace)
      if (current.current === 'clear') decide()
      grace = setTimeout(() => {
        covered = true
        decide()
      }, obscuredGraceMs)
    }
    if (presentation === 'frame' && provable && dialog) {
      observer = new IntersectionObserver(
        (entries) => {
          const entry = entries.at(-1) as V2Entry | undefined
          reported = !!entry?.isVisible && entry.intersectionRatio >= 0.99
          seenNow(reported && dialogFits(el))
        },
        { threshold: [0, 0.99, 1], trackVisibility: true, delay: 100 } as IntersectionObserverInit,
      )
      observer.observe(dialog)
      window.addEventListener('scroll', check, true)
    }
    return () => {
      for (const type of ['pointerover', 'pointermove', 'pointerdown'] as const) window.removeEventListener(type, onPointer, true)
      window.removeEventListener('pointerout', onLeave, true)
      window.removeEventListener('keydown', onKey, true)
      window.removeEventListener('focus', onFocusChange)
      window.removeEventListener('blur', onFocusChange)
      document.removeEventListener('visibilitychange', onFocusChange)
      window.removeEventListener('scroll', check, true)
      resize.disconnect()
      observer?.disconnect()
      clearTimeout(settle)
      clearTimeout(grace)
    }
  }, [ref, key, presentation])

  const settledNow = useCallback(() => performance.now() - armedAt.current >= visibleSettleMs, [])
  const allows = useCallback(
    () => current.current === 'clear' && gestured.current && settledNow() && (presentation === 'window' || dialogFits(ref.current)),
    [presentation, ref, settledNow],
  )
  // A new request is disarmed from its first render, not one effect later.
  return state.key === key ? { state: state.state, settled: state.settled, allows, settledNow } : { state: 'arming', settled: false, allows, settledNow }
}
