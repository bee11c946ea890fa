import { createStore, del, get, set, update, type UseStore } from 'idb-keyval'

/** SPEC.md section 3: the stored session. Kept in the frame's IndexedDB, never sent to the host. */
export type Session = {
  token: string
  refreshToken: string
  address: `0x${string}`
  chainId: number
  appId: string
  env: 'sandbox' | 'production'
  /** Epoch ms after which the session is dropped (7 days after it was written, SPEC.md section 9). */
  expiresAt: number
}

export const sessionLifetimeMs = 7 * 24 * 60 * 60 * 1000

export type SessionStore = {
  load(): Promise<Session | null>
  save(session: Omit<Session, 'expiresAt'>): Promise<Session>
  /**
   * Changes some fields of the stored session of `address`, atomically, so two writers (a chain
   * switch, a token refresh, another tab) never undo each other. Null when no such session is stored.
   */
  patch(address: string, fields: Partial<Pick<Session, 'token' | 'refreshToken' | 'chainId'>>): Promise<Session | null>
  clear(): Promise<void>
  /** SPEC.md section 3: the account state, kept under the key `account`. */
  loadAccount(): Promise<unknown>
  saveAccount(account: unknown): Promise<void>
}

const isSession = (v: unknown): v is Session => {
  if (typeof v !== 'object' || v === null) return false
  const s = v as Record<string, unknown>
  return (
    typeof s.token === 'string' &&
    typeof s.refreshToken === 'string' &&
    typeof s.address === 'string' &&
    /^0x[0-9a-fA-F]{40}$/.test(s.address) &&
    typeof s.chainId === 'number' &&
    typeof s.expiresAt === 'number'
  )
}

export function createSessionStore(appId: string, env: Session['env'], store: UseStore = defaultStore()): SessionStore {
  const key = `session:${appId}:${env}`
  const app = `${appId}:${env}`
  return {
    async load() {
      const value: unknown = await get(key, store)
      if (!isSession(value) || value.appId !== appId || value.env !== env) return null
      if (value.expiresAt <= Date.now()) {
        await del(key, store)
        return null
      }
      return value
    },
    async save(session) {
      const full = { ...session, expiresAt: Date.now() + sessionLifetimeMs }
      await set(key, full, store)
      return full
    },
    async patch(address, fields) {
      let result: Session | null = null
      await update<unknown>(
        key,
        (stored) => {
          if (!isSession(stored) || stored.address.toLowerCase() !== address.toLowerCase()) return stored
          result = { ...stored, ...fields }
          return result
        },
        store,
      )
      return result
    },
    async clear() {
      await del(key, store)
      await update<Record<string, unknown>>('account', ({ [app]: _, ...others } = {}) => others, store)
    },
    // One `account` entry, with a record per app and environment: apps never share permission state.
    loadAccount: async () => ((await get<Record<string, unknown>>('account', store)) ?? {})[app],
    saveAccount: (account) => update<Record<string, unknown>>('account', (all = {}) => ({ ...all, [app]: account }), store),
  }
}

let shared: UseStore | undefined
const defaultStore = () => (shared ??= createStore('wallet-kit', 'state'))
