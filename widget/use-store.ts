import { useSyncExternalStore } from 'react'
import type { ReadStore } from './store.ts'

/** A component's view of a store: it renders again when the selected value changes. */
export function useStore<S extends object, T>(store: ReadStore<S>, select: (s: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()))
}
