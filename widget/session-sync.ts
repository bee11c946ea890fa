import type { Session, SessionStore } from './session.ts'

type Message = { session: Session | null }

/**
 * Keeps the tabs of one host app in step: every session write (login, token refresh, chain switch,
 * disconnect) is announced on a BroadcastChannel, and the other tabs' frames adopt it. Without this
 * a second tab would spend a refresh token the first had already rotated, and the service treats
 * that reuse as theft and revokes the session everywhere.
 */
export function syncSessions(
  store: SessionStore,
  name: string,
  adopt: (session: Session | null) => void,
): { store: SessionStore; close(): void } {
  if (typeof BroadcastChannel === 'undefined') return { store, close() {} }
  const channel = new BroadcastChannel(name)
  channel.onmessage = (e: MessageEvent<Message>) => {
    const session = e.data?.session
    if (session === null || (typeof session === 'object' && typeof session.token === 'string')) adopt(session)
  }
  return {
    store: {
      ...store,
      async save(session) {
        const saved = await store.save(session)
        channel.postMessage({ session: saved } satisfies Message)
        return saved
      },
      async patch(address, fields) {
        const patched = await store.patch(address, fields)
        if (patched) channel.postMessage({ session: patched } satisfies Message)
        return patched
      },
      async clear() {
        await store.clear()
        channel.postMessage({ session: null } satisfies Message)
      },
    },
    close: () => channel.close(),
  }
}

type Pair = { walletToken: string; refreshToken: string }

/**
 * The sdk's refresh hook for tabs that share a stored session: one refresh at a time across them
 * (a Web Lock), and a tab whose refresh token another tab already rotated takes the stored pair
 * instead of spending the old one, which the service would treat as theft.
 */
export async function coordinateRefresh(
  options: {
    sessions: SessionStore
    /** This tab's account; another account's stored session is never taken nor written. */
    address: () => string | undefined
    lockName: string
    locks?: Pick<LockManager, 'request'> | undefined
    /** Told of the session as written, so this tab holds it before the sdk hands out the new tokens. */
    stored?: (session: Session) => void
  },
  spent: string,
  refresh: () => Promise<Pair>,
): Promise<Pair> {
  const run = async () => {
    const mine = options.address()?.toLowerCase()
    const stored = await options.sessions.load()
    const same = !!stored && stored.address.toLowerCase() === mine
    if (same && stored.refreshToken !== spent) return { walletToken: stored.token, refreshToken: stored.refreshToken }
    const pair = await refresh()
    const written = same ? await options.sessions.patch(stored.address, { token: pair.walletToken, refreshToken: pair.refreshToken }) : null
    if (written) options.stored?.(written)
    return pair
  }
  const locks = 'locks' in options ? options.locks : globalThis.navigator?.locks
  return locks ? locks.request(options.lockName, run) : run()
}
