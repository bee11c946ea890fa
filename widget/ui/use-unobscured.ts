import { useEffect, useState, type RefObject } from 'react'
import { visibleSettleMs } from '../constants.ts'

type V2Entry = IntersectionObserverEntry & { isVisible?: boolean }

/**
 * True once `ref` has been fully visible and unobscured for `visibleSettleMs`: a page that hides
 * the frame under something else, or makes it transparent, cannot get a click on Confirm.
 * Uses IntersectionObserver v2 (`trackVisibility`) where the browser has it; elsewhere only the
 * settle delay applies.
 */
export function useUnobscured(ref: RefObject<HTMLElement | null>, key: unknown): boolean {
  // The clearance names the request (`key`) it was earned for. Resetting a boolean in an effect would
  // come one paint too late: the first render of a queued request would still show the previous
  // request's Confirm enabled. Compared during render, a new key is disarmed from its first frame.
  const [clearedFor, setClearedFor] = useState<{ key: unknown } | null>(null)
  useEffect(() => {
    const setOk = (ok: boolean) => setClearedFor(ok ? { key } : null)
    setOk(false)
    const el = ref.current
    if (!el) return
    let timer: ReturnType<typeof setTimeout> | undefined
    const settle = () => {
      clearTimeout(timer)
      timer = setTimeout(() => setOk(true), visibleSettleMs)
    }
    const hasV2 = typeof IntersectionObserverEntry !== 'undefined' && 'isVisible' in IntersectionObserverEntry.prototype
    if (!hasV2) {
      settle()
      return () => clearTimeout(timer)
    }
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries.at(-1) as V2Entry | undefined
        if (entry?.isVisible && entry.intersectionRatio >= 0.99) settle()
        else {
          clearTimeout(timer)
          setOk(false)
        }
      },
      { threshold: [0.99], trackVisibility: true, delay: 100 } as IntersectionObserverInit,
    )
    observer.observe(el)
    return () => {
      observer.disconnect()
      clearTimeout(timer)
    }
  }, [ref, key])
  return clearedFor !== null && clearedFor.key === key
}
