/** A tiny external store for UI state shared by the bridge handlers and React. */
export type Store<S> = {
  get(): S
  set(update: Partial<S> | ((s: S) => Partial<S>)): void
  subscribe(fn: () => void): () => void
}

export function createStore<S extends object>(initial: S): Store<S> {
  let state = initial
  const listeners = new Set<() => void>()
  return {
    get: () => state,
    set(update) {
      const patch = typeof update === 'function' ? update(state) : update
      state = { ...state, ...patch }
      for (const fn of listeners) fn()
    },
    subscribe(fn) {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
  }
}
