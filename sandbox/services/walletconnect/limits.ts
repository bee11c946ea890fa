/**
 * What one relay (one sandbox) allows. Generous for a developer and a few browser tabs, tight enough
 * that a script cannot exhaust the sandbox's memory or CPU: every store and count here is bounded.
 */
export type RelayLimits = {
  /** Bytes of one WebSocket frame; a larger one closes the socket with 1009 (message too big). */
  frameBytes: number
  /** Frames one socket may send per minute; beyond that it is closed with 1008 (policy violation). */
  framesPerMinute: number
  /** Topics one socket may be subscribed to at once (sign-client re-subscribes in batches of 500). */
  subscriptionsPerSocket: number
  /** Subscriptions of all sockets together. */
  subscriptions: number
  /** Messages one client id may publish per minute, over all its sockets (a batch counts each message). */
  publishesPerMinute: number
  /**
   * Messages kept per topic from one client id, and in all (count and bytes): the publisher's own
   * oldest make way for its new one; another client's never do (past the relay's caps, a publish
   * its own messages cannot make room for is refused, -32005).
   */
  messagesPerTopic: number
  storedMessages: number
  storedBytes: number
  /**
   * Messages (count and bytes) one client id may have stored, and all client ids of one source
   * address together (a client id is a key anyone can make). Past them a publish is refused until
   * some expire; they are below the relay's caps, so no one client or address can fill the relay.
   */
  storedMessagesPerClient: number
  storedBytesPerClient: number
  storedMessagesPerSource: number
  storedBytesPerSource: number
  /** Longest TTL a publish may ask for, in seconds (sign-client's longest is 30 days, for pairings). */
  maxTtlSeconds: number
  /** Open sockets on this relay, and per client id (a client id is one browser profile or app, several tabs). */
  sockets: number
  socketsPerClient: number
  /** Open sockets from one source address, whatever their client ids. */
  socketsPerSource: number
  /** Bytes waiting to be written to one socket before it counts as stuck and is dropped. */
  bufferedBytes: number
  /**
   * How often the relay pings each socket. Node clients drop a socket that has had no ping for 35 s
   * (the WalletConnect clients' own timeout); a socket that has not answered the previous ping is dropped.
   */
  pingIntervalMs: number
}

export const defaultRelayLimits: RelayLimits = {
  frameBytes: 64 * 1024,
  framesPerMinute: 3_000,
  subscriptionsPerSocket: 1_000,
  subscriptions: 100_000,
  publishesPerMinute: 300,
  messagesPerTopic: 200,
  storedMessages: 10_000,
  storedBytes: 32 * 1024 * 1024,
  // A dapp and a wallet keep a few messages of a few KB each for their TTL (minutes, a day for a few).
  storedMessagesPerClient: 2_500,
  storedBytesPerClient: 4 * 1024 * 1024,
  // Every local client (every tab, the dev wallet, tests) shares loopback's budget.
  storedMessagesPerSource: 5_000,
  storedBytesPerSource: 16 * 1024 * 1024,
  maxTtlSeconds: 30 * 24 * 60 * 60,
  sockets: 1_000,
  socketsPerClient: 20,
  // Loopback is one address: every local tab and the dev wallet share this.
  socketsPerSource: 500,
  bufferedBytes: 4 * 1024 * 1024,
  pingIntervalMs: 25_000,
}

/** Fixed one-minute windows per key; `sweep` forgets windows that have ended, so the map stays small. */
export function perMinute(max: number) {
  const windows = new Map<string, { count: number; resetAt: number }>()
  return {
    /** Counts `n` hits for `key` if they fit in its window's budget; false (and nothing counted) if not. */
    take(key: string, n = 1, now = Date.now()): boolean {
      let window = windows.get(key)
      if (!window || window.resetAt <= now) {
        window = { count: 0, resetAt: now + 60_000 }
        windows.set(key, window)
      }
      if (window.count + n > max) return false
      window.count += n
      return true
    },
    sweep(now = Date.now()) {
      for (const [key, window] of windows) if (window.resetAt <= now) windows.delete(key)
    },
  }
}
