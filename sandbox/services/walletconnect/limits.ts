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
  /** Messages kept per topic; the oldest makes way for a new one. */
  messagesPerTopic: number
  /** Messages kept in all; the oldest makes way for a new one. */
  storedMessages: number
  /** Bytes of messages kept in all; the oldest make way for a new one. */
  storedBytes: number
  /** Longest TTL a publish may ask for, in seconds (sign-client's longest is 30 days, for pairings). */
  maxTtlSeconds: number
  /** Open sockets on this relay, and per client id (a client id is one browser profile or app, several tabs). */
  sockets: number
  socketsPerClient: number
  /** Bytes waiting to be written to one socket before it counts as stuck and is dropped. */
  bufferedBytes: number
  /**
   * How often the relay pings each socket. Node clients drop a socket that has had no ping for 35 s
   * (TOOLCHAIN.md); a socket that has not answered the previous ping is dropped.
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
  maxTtlSeconds: 30 * 24 * 60 * 60,
  sockets: 1_000,
  socketsPerClient: 20,
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
