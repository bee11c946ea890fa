/** A tiny external store for UI state shared by the bridge handlers and React. */
export type Store<S> = {
  get(): Readonly<S>
  set(update: Partial<S> | ((s: Readonly<S>) => Partial<S>)): void
  subscribe(fn: () => void): () => void
}

/**
 * The state is frozen (its top level; nested values are replaced whole, never edited): a reader,
 * or an update function, that writes into what it was handed throws instead of changing the state
 * behind its owner's back and without a word to the subscribers.
 */
export function createStore<S extends object>(initial: S): Store<S> {
  let state = Object.freeze({ ...initial })
  const listeners = new Set<() => void>()
  return {
    get: () => state,
    set(update) {
      const patch = typeof update === 'function' ? update(state) : update
      state = Object.freeze({ ...state, ...patch })
      for (const fn of listeners) fn()
    },
    subscribe(fn) {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
  }
}

/** A store as its readers see it: they may read and follow it, never write it. */
export type ReadStore<S> = Pick<Store<S>, 'get' | 'subscribe'>

/**
 * The writer of some of a store's fields: the one module that owns them holds it. A write of any
 * other field throws, so no module writes another's state, even past the types.
 */
export type Slice<S, K extends keyof S> = ReadStore<S> & {
  set(update: Partial<Pick<S, K>> | ((s: Readonly<S>) => Partial<Pick<S, K>>)): void
}

export function slice<S extends object, K extends keyof S>(store: Store<S>, keys: readonly K[]): Slice<S, K> {
  const owned = new Set<PropertyKey>(keys)
  return {
    get: store.get,
    subscribe: store.subscribe,
    set(update) {
      const patch = typeof update === 'function' ? update(store.get()) : update
      const foreign = Object.keys(patch).filter((key) => !owned.has(key))
      if (foreign.length) throw new Error(`Not this module's state: ${foreign.join(', ')}`)
      store.set(patch as Partial<S>)
    },
  }
}
