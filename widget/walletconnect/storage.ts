import { createStore, del, entries, get, keys, set } from 'idb-keyval'

/** The topic of the session the frame holds, kept next to sign-client's own records. */
export const topicKey = 'wallet-kit:topic'

/** What sign-client keeps its pairings, sessions and keys in (IKeyValueStorage of @walletconnect/keyvaluestorage). */
export type KeyValueStorage = {
  getKeys(): Promise<string[]>
  getEntries<T = unknown>(): Promise<[string, T][]>
  getItem<T = unknown>(key: string): Promise<T | undefined>
  setItem<T = unknown>(key: string, value: T): Promise<void>
  removeItem(key: string): Promise<void>
}

/**
 * The frame's WalletConnect storage: its own IndexedDB database on the provider origin when the
 * frame may store (the session survives a reload), else this page's memory (the session lasts
 * while the page does, as the embedded wallet's does). Never sign-client's default, which would
 * hang or throw where third-party storage is blocked.
 */
export function walletConnectStorage(persistent: boolean): KeyValueStorage {
  if (!persistent) return memoryStorage()
  const store = createStore('wallet-kit-walletconnect', 'kv')
  return {
    getKeys: async () => (await keys(store)).map(String),
    getEntries: async <T>() => (await entries(store)).map(([k, v]) => [String(k), v as T] as [string, T]),
    getItem: <T>(key: string) => get<T>(key, store),
    setItem: (key, value) => set(key, value, store),
    removeItem: (key) => del(key, store),
  }
}

export function memoryStorage(): KeyValueStorage {
  const map = new Map<string, unknown>()
  return {
    getKeys: async () => [...map.keys()],
    getEntries: async <T>() => [...map.entries()] as [string, T][],
    getItem: async <T>(key: string) => map.get(key) as T | undefined,
    setItem: async (key, value) => void map.set(key, value),
    removeItem: async (key) => void map.delete(key),
  }
}
