import { sameAddress } from '../bridge/rpc-params.ts'
import type { TokenHolder, Tokens } from '../sdk/index.ts'
import { createTokenHolder } from '../sdk/config.ts'
import { isSession, maxSites, type Session, type SessionStore, type SmartAccountUse } from './session.ts'

/** What the UI and the host may know of a session: never its tokens. */
export type PublicSession = {
  readonly address: `0x${string}`
  readonly chainId: number
  readonly smartAccount?: SmartAccountUse
  /** The sites (origins) the user connected (session.ts). */
  readonly sites?: readonly string[]
}

/**
 * Why the session changed: a login in this frame, another tab's write or logout (adopted, never
 * written back), or its end here (a logout, a refresh the service refused).
 */
export type SessionChange = { session: PublicSession | null; source: 'login' | 'remote' | 'ended' }

type Pair = { walletToken: string; refreshToken: string }

export type SessionOwner = {
  /** The sdk's token holder (`createClient({ tokens })`): the only place the frame keeps tokens. */
  readonly tokens: TokenHolder
  /** For `createClient({ coordinateRefresh })`: one refresh at a time across this app's tabs. */
  coordinateRefresh(spent: string, refresh: () => Promise<Pair>): Promise<Pair>
  /** Whether the session outlives the page (false: storage blocked, kept in memory). */
  readonly persistent: boolean
  /** Reads the stored session once at start; the tokens are held from then on. */
  restore(): Promise<PublicSession | null>
  current(): PublicSession | null
  /** Every write so far has reached the store (and the other tabs). */
  settled(): Promise<void>
  setChain(chainId: number): Promise<void>
  /** The smart account the host sees from now on (null: the embedded wallet again), stored and told to the other tabs. */
  setSmartAccount(use: SmartAccountUse | null): Promise<void>
  /** Connects `site` to the held session (or forgets it): at once here, then stored and told to the other tabs. */
  setSite(site: string, connected: boolean): Promise<void>
  /** Ends the session here: tokens forgotten, stored session and account state cleared. */
  end(): Promise<void>
  subscribe(listener: (change: SessionChange) => void): () => void
  /** The account state (isPermissionGranted, acceptPermissionPage), stored next to the session. */
  loadAccount(): Promise<unknown>
  saveAccount(account: unknown): Promise<void>
  close(): void
}

const sessionKeys: readonly (keyof Tokens)[] = ['walletToken', 'refreshToken', 'address', 'rampAccessToken']
const same = (a: string | undefined, b: string | undefined) => !!a && !!b && sameAddress(a, b)

/**
 * The frame's one owner of the session. The sdk writes tokens into `tokens` (a login, a wallet
 * creation, a refresh, a logout); each write lands in the store once, is announced to this app's
 * other tabs (BroadcastChannel), and is told to the widget as a public change. Another tab's write
 * is adopted without being written back. Refreshes take turns across tabs (a Web Lock), and a tab
 * whose refresh token another tab already rotated takes the stored pair instead of spending the
 * old one, which the service would treat as theft.
 */
export function createSessionOwner(deps: {
  appId: string
  env: Session['env']
  store: SessionStore
  persistent: boolean
  /** The chain a new login is stored with (the one the modal is on). */
  chainId: () => number
  /** Names the BroadcastChannel and the Web Lock; tabs of one app and environment share them. */
  name?: string
  locks?: Pick<LockManager, 'request'> | undefined
  channel?: BroadcastChannel | undefined
}): SessionOwner {
  const name = deps.name ?? `wallet-kit:${deps.appId}:${deps.env}`
  const holder = createTokenHolder()
  const listeners = new Set<(change: SessionChange) => void>()
  let session: PublicSession | null = null
  let writes: Promise<unknown> = Promise.resolve()
  /** Set while a change comes from the store or another tab: the holder must not write it back. */
  let adopting = false

  const tell = (change: SessionChange) => {
    for (const listener of listeners) listener(change)
  }
  /** Store writes in order; one failing (storage gone) does not stop the next. */
  const write = (fn: () => Promise<unknown>) => {
    const next = writes.then(fn)
    writes = next.catch((error: unknown) => console.warn('wallet-kit: the session could not be stored:', error))
    return next
  }

  // A memory store is this page's alone: nothing to announce, nobody to take turns with.
  const channel = deps.persistent ? (deps.channel ?? openChannel(name)) : undefined
  /** Tells the other tabs what was written; a write that found no session of ours tells nothing. */
  const broadcast = (stored: Session | null) => void (stored && channel?.postMessage({ session: stored }))
  const locks = deps.persistent ? ('locks' in deps ? deps.locks : globalThis.navigator?.locks) : undefined

  const tokens: TokenHolder = {
    get: holder.get,
    subscribe: holder.subscribe,
    set(patch) {
      const before = holder.get()
      holder.set(patch)
      if (adopting) return
      const now = holder.get()
      if (!now.walletToken || !now.refreshToken || !now.address) return
      if (!same(now.address, session?.address)) {
        // A login (or a new wallet) in this frame: stored once, with the chain the modal is on.
        const login = { address: now.address as `0x${string}`, chainId: deps.chainId() }
        session = login
        const pair = { token: now.walletToken, refreshToken: now.refreshToken }
        void write(async () => broadcast(await deps.store.save({ ...pair, ...login, appId: deps.appId, env: deps.env })))
        tell({ session: login, source: 'login' })
      } else if (now.walletToken !== before.walletToken || now.refreshToken !== before.refreshToken) {
        // A refresh outside coordinateRefresh (which stored it already, then adopts it here).
        const fields = { token: now.walletToken, refreshToken: now.refreshToken }
        const address = now.address
        void write(async () => broadcast(await deps.store.patch(address, fields)))
      }
    },
    clear(keys) {
      const had = session
      holder.clear(keys)
      if (adopting || !had || (holder.get().walletToken && holder.get().refreshToken)) return
      // The sdk ended the session (a logout, a refresh the service refused).
      void end()
    },
  }

  function adopt(stored: Session | null) {
    adopting = true
    try {
      if (!stored) holder.clear(sessionKeys)
      else {
        // Another account's ramp token is not this one's.
        if (!same(stored.address, holder.get().address)) holder.clear(['rampAccessToken'])
        holder.set({ walletToken: stored.token, refreshToken: stored.refreshToken, address: stored.address })
      }
    } finally {
      adopting = false
    }
    session = stored && {
      address: stored.address,
      chainId: stored.chainId,
      ...(stored.smartAccount && { smartAccount: stored.smartAccount }),
      ...(stored.sites && { sites: stored.sites }),
    }
  }

  /**
   * Whether another tab's session was adopted since this owner began. It is at least as new as any
   * copy the restore reads (tabs write, then say so), and that read may have begun before the other
   * tab wrote: the restore then keeps what it heard.
   */
  let heard = false
  // The stored copy is read at once, beside what the frame waits for next (the app config), and the
  // restore takes this read: the first answer to the page waits for one read fewer.
  let firstRead: Promise<Session | null> | undefined = deps.store.load()
  firstRead.catch(() => {})
  if (channel)
    channel.onmessage = (event: MessageEvent<{ session?: unknown }>) => {
      const stored = event.data?.session
      // Checked as a stored session is (session.ts): another tab's message is data, not trusted.
      if (stored !== null && !isSession(stored)) return
      if (stored && (stored.appId !== deps.appId || stored.env !== deps.env)) return
      heard = true
      adopt(stored)
      tell({ session, source: 'remote' })
    }

  let ending: Promise<void> | null = null
  function end(): Promise<void> {
    ending ??= (async () => {
      const had = session
      adopting = true
      try {
        holder.clear(sessionKeys)
      } finally {
        adopting = false
      }
      session = null
      await write(async () => {
        await deps.store.clear()
        channel?.postMessage({ session: null })
      }).catch(() => {})
      if (had) tell({ session: null, source: 'ended' })
    })().finally(() => {
      ending = null
    })
    return ending
  }

  async function coordinateRefresh(spent: string, refresh: () => Promise<Pair>): Promise<Pair> {
    const run = async (): Promise<Pair> => {
      await writes
      const mine = holder.get().address
      const stored = await deps.store.load()
      const ours = !!stored && same(stored.address, mine)
      if (ours && stored.refreshToken !== spent) {
        // Another tab rotated it already: its pair is held as is, not written again.
        adopt(stored)
        return { walletToken: stored.token, refreshToken: stored.refreshToken }
      }
      const pair = await refresh()
      if (ours) {
        const written = await deps.store.patch(stored.address, { token: pair.walletToken, refreshToken: pair.refreshToken })
        broadcast(written)
        // Held before the sdk hands the pair out, so it is not written a second time.
        if (written) adopt(written)
      }
      return pair
    }
    if (!locks) return run()
    let started = false
    return locks
      .request(`wallet-kit-refresh:${deps.appId}:${deps.env}`, () => {
        started = true
        return run()
      })
      .catch((error: unknown) => {
        // A browser that refuses the lock (storage blocked for this frame): refresh without it.
        if (!started && (error as Error)?.name === 'SecurityError') return run()
        throw error
      })
  }

  return {
    tokens,
    coordinateRefresh,
    persistent: deps.persistent,
    async restore() {
      const read = firstRead ?? deps.store.load()
      firstRead = undefined
      const stored = await read
      if (!heard) adopt(stored)
      return session
    },
    current: () => session,
    settled: () => writes.then(() => {}),
    async setChain(chainId) {
      const address = session?.address
      if (!address) return
      session = { ...session!, chainId }
      await write(async () => broadcast(await deps.store.patch(address, { chainId })))
    },
    async setSmartAccount(use) {
      const address = session?.address
      if (!address) return
      const { smartAccount: _, ...rest } = session!
      session = use ? { ...rest, smartAccount: use } : rest
      await write(async () => broadcast(await deps.store.patch(address, { smartAccount: use ?? undefined })))
    },
    async setSite(site, connected) {
      const address = session?.address
      if (!address) return
      const next = (sites: readonly string[] = []) => [...sites.filter((o) => o !== site), ...(connected ? [site] : [])].slice(-maxSites)
      session = { ...session!, sites: next(session!.sites) }
      // Applied to what is stored: another tab may have connected its own site meanwhile.
      await write(async () => broadcast(await deps.store.patch(address, (stored) => ({ sites: next(stored.sites) }))))
    },
    end,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    loadAccount: () => deps.store.loadAccount(),
    saveAccount: (account) => deps.store.saveAccount(account),
    close: () => channel?.close(),
  }
}

function openChannel(name: string): BroadcastChannel | undefined {
  try {
    return typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(name)
  } catch {
    return undefined
  }
}
