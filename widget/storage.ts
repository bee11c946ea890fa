import { createStore, del, get, promisifyRequest, set, update, type UseStore } from 'idb-keyval'

/** Where the store keeps its entries: IndexedDB, or this page's memory when the frame may not store. */
export type Entries = {
  get(key: string): Promise<unknown>
  set(key: string, value: unknown): Promise<void>
  del(key: string): Promise<void>
  /** Replaces an entry with `fn(current)` in one step (IndexedDB: one transaction). */
  update(key: string, fn: (current: unknown) => unknown): Promise<void>
  /** Writes `value` under `key` and reads it back in one step (IndexedDB: one transaction), where the storage can. */
  writeAndRead?(key: string, value: unknown): Promise<unknown>
}

export const indexedDbEntries = (store: UseStore): Entries => ({
  get: (key) => get(key, store),
  set: (key, value) => set(key, value, store),
  del: (key) => del(key, store),
  update: (key, fn) => update(key, fn, store),
  writeAndRead: (key, value) =>
    store('readwrite', (objects) => {
      objects.put(value, key)
      const read = promisifyRequest(objects.get(key))
      // Done once the write is committed, as `set` is.
      return promisifyRequest(objects.transaction).then(() => read)
    }),
})

export function memoryEntries(initial: Record<string, unknown> = {}): Entries & { peek(key: string): unknown } {
  const map = new Map<string, unknown>(Object.entries(initial))
  return {
    peek: (key) => map.get(key),
    get: async (key) => map.get(key),
    set: async (key, value) => void map.set(key, value),
    del: async (key) => void map.delete(key),
    update: async (key, fn) => {
      const next = fn(map.get(key))
      if (next === undefined) map.delete(key)
      else map.set(key, next)
    },
  }
}

/** The frame's session database (the session, the account state, the app config's stored copy). */
export const sessionDatabase = (): UseStore => createStore('wallet-kit', 'state')

/**
 * Whether the browser lets the frame store anything: a write and a read (a browser may allow one
 * and refuse the other). Resolves to the entries once both worked; rejects with what failed.
 */
export async function probeEntries(make: () => Entries): Promise<Entries> {
  const entries = make()
  const now = Date.now()
  if (entries.writeAndRead) await entries.writeAndRead('probe', now)
  else {
    await entries.set('probe', now)
    await entries.get('probe')
  }
  return entries
}
