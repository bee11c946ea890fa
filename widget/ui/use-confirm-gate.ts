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
  state: GateState
  /** Decided at the click from what is known at that moment, not from the last render. */
  allows(): boolean
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

/**
 * The Confirm gate. In the wallet frame the host page owns the iframe element: it can make it
 * transparent, cover it, or move it under the user's pointer between two clicks. So Confirm is
 * enabled only `visibleSettleMs` after the last of these: the request was shown; IntersectionObserver
 * v2 reported the frame fully visible and unobscured; the frame's size changed; the pointer came in
 * from outside; the content under the pointer shifted more than the pointer moved (the frame moved).
 * Without IntersectionObserver v2 (Firefox, Safari) a frame is `unsafe` from the start.
 *
 * In the secure window (`presentation: 'window'`), a first-party top-level window no host page can
 * cover, only the timing rules apply.
 */
export function useConfirmGate(ref: RefObject<HTMLElement | null>, key: unknown, presentation: 'frame' | 'window'): Gate {
  const [state, setState] = useState<{ key: unknown; state: GateState }>({ key, state: 'arming' })
  const current = useRef<GateState>('arming')
  const armedAt = useRef(0)

  useEffect(() => {
    const set = (next: GateState) => {
      current.current = next
      setState({ key, state: next })
    }
    const el = ref.current
    if (presentation === 'frame' && !hasIntersectionObserverV2()) return set('unsafe')
    let visible = presentation === 'window'
    let settle: ReturnType<typeof setTimeout> | undefined
    let grace: ReturnType<typeof setTimeout> | undefined
    const rearm = () => {
      armedAt.current = performance.now()
      clearTimeout(settle)
      if (current.current !== 'unsafe') set('arming')
      if (visible) settle = setTimeout(() => set('clear'), visibleSettleMs)
    }
    rearm()

    // The frame moved: the part of the pointer's travel in the page that the screen did not see.
    let last: { sx: number; sy: number; cx: number; cy: number } | null = null
    const onPointer = (e: PointerEvent) => {
      const at = { sx: e.screenX, sy: e.screenY, cx: e.clientX, cy: e.clientY }
      const cameIn = e.type === 'pointerover' && e.relatedTarget === null
      const shifted = last !== null && (moved(at.sx - last.sx, at.cx - last.cx) || moved(at.sy - last.sy, at.cy - last.cy))
      last = at
      // Disabled on screen before this event's click can land (a continuous event's render would come later).
      if (cameIn || shifted) flushSync(rearm)
    }
    const onLeave = (e: PointerEvent) => {
      if (e.relatedTarget === null) last = null
    }
    for (const type of ['pointerover', 'pointermove', 'pointerdown'] as const) window.addEventListener(type, onPointer, true)
    window.addEventListener('pointerout', onLeave, true)
    const resize = new ResizeObserver(() => rearm())
    resize.observe(document.documentElement)

    let observer: IntersectionObserver | undefined
    if (presentation === 'frame' && el) {
      observer = new IntersectionObserver(
        (entries) => {
          const entry = entries.at(-1) as V2Entry | undefined
          visible = !!entry?.isVisible && entry.intersectionRatio >= 0.99
          clearTimeout(grace)
          if (visible) {
            if (current.current === 'unsafe') set('arming')
            return rearm()
          }
          clearTimeout(settle)
          if (current.current === 'clear') set('arming')
          // A modal still fading in is briefly "not visible": only a lasting report means covered.
          grace = setTimeout(() => set('unsafe'), obscuredGraceMs)
        },
        { threshold: [0.99], trackVisibility: true, delay: 100 } as IntersectionObserverInit,
      )
      observer.observe(el)
    }
    return () => {
      for (const type of ['pointerover', 'pointermove', 'pointerdown'] as const) window.removeEventListener(type, onPointer, true)
      window.removeEventListener('pointerout', onLeave, true)
      resize.disconnect()
      observer?.disconnect()
      clearTimeout(settle)
      clearTimeout(grace)
    }
  }, [ref, key, presentation])

  const allows = useCallback(() => current.current === 'clear' && performance.now() - armedAt.current >= visibleSettleMs, [])
  // A new request is disarmed from its first render, not one effect later.
  return { state: state.key === key ? state.state : 'arming', allows }
}
