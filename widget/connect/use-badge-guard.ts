import { useEffect, type RefObject } from 'react'
import { lazyModule } from '../lazy-module.ts'

const guard = lazyModule(() => import('./badge-guard.ts'))

/** Keeps password-manager badges from covering the field in `ref` (badge-guard.ts, loaded after the first route). */
export function useBadgeGuard(ref: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const since = Date.now()
    let stop: (() => void) | undefined
    let gone = false
    guard.get().then(
      (m) => {
        if (!gone && ref.current) stop = m.guardBadges(ref.current, since)
      },
      () => {},
    )
    return () => {
      gone = true
      stop?.()
    }
  }, [ref])
}
