import { isAddress, sameAddress } from '../bridge/rpc-params.ts'
import { type Entries, indexedDbEntries, memoryEntries, probeEntries, sessionDatabase } from './storage.ts'

/** The stored session: tokens, address, chain, app and environment. Kept in the frame's IndexedDB, never sent to the host. */
export type Session = {
  token: string
  refreshToken: string
  address: `0x${string}`
  chainId: number
  appId: string
  env: 'sandbox' | 'production'
  /** Epoch ms after which the session is dropped (7 days after it was written). */
  expiresAt: number
  /** The smart account the user chose to use on this site (the address the host sees), if any. */
  smartAccount?: SmartAccountUse
  /**
   * The pages (origins, as Penpal checked them) the user connected: only they see the account and
   * may ask for signatures (rpc/index.ts). Kept with the session, so a logout forgets them all.
   */
  sites?: readonly string[]
}

/**
 * A smart account in use on the site: its address (one per owner, the same on every chain) and its
 * id at the smart-account service on each chain that has one (keys: chain ids).
 */
export type SmartAccountUse = { readonly address: `0x${string}`; readonly accounts: Readonly<Record<string, string>> }

const isSmartAccountUse = (v: unknown): v is SmartAccountUse => {
  if (typeof v !== 'object' || v === null) return false
  const { address, accounts } = v as Record<string, unknown>
  return (
    isAddress(address) &&
    typeof accounts === 'object' &&
    accounts !== null &&
    Object.entries(accounts).every(([chainId, id]) => /^\d{1,12}$/.test(chainId) && typeof id === 'string' && id.length <= 64)
  )
}

export const sessionLifetimeMs = 7 * 24 * 60 * 60 * 1000

export type SessionStore = {
  load(): Promise<Session | null>
  save(session: Omit<Session, 'expiresAt'>): Promise<Session>
  /**
   * Changes some fields of the stored session of `address`, atomically, so two writers (a chain
   * switch, a token refresh, another tab) never undo each other. Null when no such session is stored.
   */
  patch(
    address: string,
    fields: Partial<Pick<Session, 'token' | 'refreshToken' | 'chainId' | 'smartAccount' | 'sites'>> | ((stored: Session) => Pick<Session, 'sites'>),
  ): Promise<Session | null>
  clear(): Promise<void>
  /** The account state (isPermissionGranted, acceptPermissionPage), kept under the key `account`. */
  loadAccount(): Promise<unknown>
  saveAccount(account: unknown): Promise<void>
  /** The app config as last fetched, while younger than `appConfigStaleMs`; else undefined. */
  loadAppConfig(): Promise<unknown>
  saveAppConfig(config: unknown): Promise<void>
}

/** The app config is fetched at most once an hour (no retry, no refetch on focus). */
export const appConfigStaleMs = 60 * 60 * 1000

/** At most this many connected sites are kept (the oldest goes first). */
export const maxSites = 50

export const isSession = (v: unknown): v is Session => {
  if (typeof v !== 'object' || v === null) return false
  const s = v as Record<string, unknown>
  return (
    typeof s.token === 'string' &&
    typeof s.refreshToken === 'string' &&
    isAddress(s.address) &&
    typeof s.chainId === 'number' &&
    typeof s.expiresAt === 'number' &&
    (s.smartAccount === undefined || isSmartAccountUse(s.smartAccount)) &&
    (s.sites === undefined || (Array.isArray(s.sites) && s.sites.length <= maxSites && s.sites.every((o) => typeof o === 'string' && o.length < 300)))
  )
}

export function createSessionStore(appId: string, env: Session['env'], entries: Entries): SessionStore {
  const key = `session:${appId}:${env}`
  const app = `${appId}:${env}`
  return {
    async load() {
      const value = await entries.get(key)
      if (!isSession(value) || value.appId !== appId || value.env !== env) return null
      if (value.expiresAt <= Date.now()) {
        await entries.del(key)
        return null
      }
      return value
    },
    async save(session) {
      const full = { ...session, expiresAt: Date.now() + sessionLifetimeMs }
      await entries.set(key, full)
      return full
    },
    async patch(address, fields) {
      let result: Session | null = null
      await entries.update(key, (stored) => {
        if (!isSession(stored) || !sameAddress(stored.address, address)) return stored
        result = { ...stored, ...(typeof fields === 'function' ? fields(stored) : fields) }
        return result
      })
      return result
    },
    async clear() {
      await entries.del(key)
      await entries.update('account', (all) => {
        const { [app]: _, ...others } = (all ?? {}) as Record<string, unknown>
        return others
      })
    },
    // One `account` entry, with a record per app and environment: apps never share permission state.
    loadAccount: async () => (((await entries.get('account')) ?? {}) as Record<string, unknown>)[app],
    saveAccount: (account) => entries.update('account', (all) => ({ ...((all ?? {}) as Record<string, unknown>), [app]: account })),
    async loadAppConfig() {
      const cached = (await entries.get(`appConfig:${app}`)) as { config?: unknown; fetchedAt?: unknown } | undefined
      if (typeof cached?.fetchedAt !== 'number' || typeof cached.config !== 'object' || cached.config === null) return undefined
      const age = Date.now() - cached.fetchedAt
      return age >= 0 && age < appConfigStaleMs ? cached.config : undefined
    },
    saveAppConfig: (config) => entries.set(`appConfig:${app}`, { config, fetchedAt: Date.now() }),
  }
}

/** How long the frame waits for IndexedDB to answer before it keeps the session in memory instead. */
export const storageProbeMs = 1500

/**
 * The frame's session store: IndexedDB when the browser lets the frame use it; otherwise (third-party
 * storage blocked by the browser, a policy or the user; IndexedDB throwing, or not answering within
 * `storageProbeMs`) this page's memory. Everything works then, the session just does not outlive the
 * page; said once in the console. Never hangs.
 */
export async function openSessionStore(
  appId: string,
  env: Session['env'],
  options: { entries?: () => Entries; probeMs?: number; probed?: Promise<Entries> } = {},
): Promise<{ store: SessionStore; persistent: boolean }> {
  try {
    // A probe the frame's entry already began (early.ts), else one begun now.
    const probed = options.probed ?? probeEntries(options.entries ?? (() => indexedDbEntries(sessionDatabase())))
    const probeMs = options.probeMs ?? storageProbeMs
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${probeMs} ms`)), probeMs)
    })
    const entries = await Promise.race([probed, timeout]).finally(() => clearTimeout(timer))
    const store = createSessionStore(appId, env, entries)
    return { store, persistent: true }
  } catch (error) {
    console.warn(
      `wallet-kit: this browser does not let the wallet frame store anything (${(error as Error)?.message ?? error}): the session lasts until this page is closed`,
    )
    return { store: createSessionStore(appId, env, memoryEntries()), persistent: false }
  }
}
