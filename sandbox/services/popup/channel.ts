/**
 * The popup channel: a short-lived mailbox between the wallet frame and the secure window (the popup)
 * it opened, kept on the provider's own server. A host page with `Cross-Origin-Opener-Policy` cuts
 * the popup off from its opener, and a partitioned or blocked third-party storage keeps the frame and
 * the popup apart, so neither postMessage nor BroadcastChannel can carry this: the server can.
 *
 * A channel is named by 32 random bytes the frame made (it travels in the popup's URL fragment, never
 * through the host page): knowing the name is the only key. Each side reads what the other wrote,
 * never its own. Everything is in memory, bounded in bytes (per client and in all), and gone after
 * `ttlMs`; an expired name stays refused (410) for another `ttlMs`, so a reader that goes on reading
 * learns that the channel ended instead of finding a new, empty one under the same name.
 */
export type Side = 'frame' | 'popup'

export type ChannelLimits = {
  /** How long a channel lives after its first message. */
  ttlMs: number
  /** Messages per side and channel. */
  messagesPerSide: number
  /** Bytes of one message's JSON. */
  messageBytes: number
  /** Channels open at once on this server. */
  channels: number
  /** Channels one client (an IP address) may open per `ttlMs`: one page cannot use up `channels`. */
  channelsPerClient: number
  /** How long a read waits for a message before it answers with none (a reader may ask for less). */
  waitMs: number
  /** A side that has not read for this long, and is not reading, is gone (its window closed). */
  goneMs: number
  /** Bytes of messages one client (an IP address) may have stored at once. */
  bytesPerClient: number
  /** Bytes of messages stored at once on this server, all clients together. */
  bytes: number
}

export const defaultChannelLimits: ChannelLimits = {
  ttlMs: 10 * 60_000,
  messagesPerSide: 256,
  messageBytes: 16 * 1024,
  channels: 5_000,
  channelsPerClient: 60,
  waitMs: 20_000,
  goneMs: 2_000,
  bytesPerClient: 4 * 1024 * 1024,
  bytes: 64 * 1024 * 1024,
}

/**
 * Whether the other side is there: it reads continuously while its page is open, so a side that
 * stopped reading has gone (its window was closed, or the frame's page unloaded). This is how the
 * frame learns that a secure window it holds no handle to (the host sent COOP) was closed.
 */
export type Peer = 'unseen' | 'here' | 'gone'

/** 32 bytes in base64url, no padding. */
export const channelIdPattern = /^[A-Za-z0-9_-]{43}$/

export class ChannelError extends Error {
  override readonly name = 'ChannelError'
  constructor(
    readonly status: 400 | 409 | 410 | 413 | 429 | 503,
    message: string,
  ) {
    super(message)
  }
}

type Channel = {
  expiresAt: number
  /**
   * Messages written by each side, as the JSON text that was posted (a parsed value can take many
   * times its text's size in memory: `[[],[],…]`), with the client that wrote each, for its budget.
   */
  sent: Record<Side, { json: string; bytes: number; client: string }[]>
  /** Keys of messages that may be written once per channel (the service's session handoff). */
  once: Set<string>
  /** Readers waiting for the other side's next message. */
  waiting: Record<Side, Set<() => void>>
  /** When each side last read (0: never). */
  seen: Record<Side, number>
}

export type PopupChannels = ReturnType<typeof createPopupChannels>

/** What stands for a key-export handoff once read: no client takes it for a handoff. */
const spentHandoff = JSON.stringify({ type: 'export-key', spent: true })
const isKeyHandoff = (value: unknown) =>
  typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'export-key' && 'walletToken' in value

const other = (side: Side): Side => (side === 'frame' ? 'popup' : 'frame')

export function createPopupChannels(limits: Partial<ChannelLimits> = {}, now: () => number = Date.now) {
  const l = { ...defaultChannelLimits, ...limits }
  const channels = new Map<string, Channel>()
  /** When each client opened its recent channels. */
  const opened = new Map<string, number[]>()
  /** Names of expired channels, until when they stay refused. */
  const expired = new Map<string, number>()
  /** Bytes stored per client, and in all. */
  const held = new Map<string, number>()
  let total = 0
  const release = (client: string, bytes: number) => {
    total -= bytes
    const left = (held.get(client) ?? 0) - bytes
    if (left > 0) held.set(client, left)
    else held.delete(client)
  }

  /**
   * The key export's handoff (a session's wallet token and its step-up proof) is given out once:
   * the first read takes it, and only a stub stays, so the token does not sit here for the
   * channel's ten minutes for anyone who later learns the name (from a log line of its path, say)
   * and reads from index 0. A second reader, racing the window, gets nothing either way.
   */
  const spend = (message: { json: string; bytes: number; client: string }) => {
    message.json = spentHandoff
    const bytes = new TextEncoder().encode(spentHandoff).byteLength
    release(message.client, message.bytes - bytes)
    message.bytes = bytes
  }

  const sweep = () => {
    const t = now()
    for (const [client, times] of opened) {
      const recent = times.filter((at) => t - at < l.ttlMs)
      if (recent.length) opened.set(client, recent)
      else opened.delete(client)
    }
    for (const [id, until] of expired) if (until <= t) expired.delete(id)
    for (const [id, channel] of channels) {
      if (channel.expiresAt > t) continue
      channels.delete(id)
      expired.set(id, t + l.ttlMs)
      for (const message of [...channel.sent.frame, ...channel.sent.popup]) release(message.client, message.bytes)
      for (const wake of [...channel.waiting.frame, ...channel.waiting.popup]) wake()
    }
  }

  const open = (id: string, client: string): Channel => {
    if (!channelIdPattern.test(id)) throw new ChannelError(400, 'Invalid channel')
    sweep()
    if (expired.has(id)) throw new ChannelError(410, 'This channel has ended')
    let channel = channels.get(id)
    if (!channel) {
      const recent = opened.get(client) ?? []
      if (recent.length >= l.channelsPerClient) throw new ChannelError(429, 'Too many channels opened: try again later')
      if (channels.size >= l.channels) throw new ChannelError(503, 'Too many open channels: try again shortly')
      opened.set(client, [...recent, now()])
      channel = {
        expiresAt: now() + l.ttlMs,
        sent: { frame: [], popup: [] },
        once: new Set(),
        waiting: { frame: new Set(), popup: new Set() },
        seen: { frame: 0, popup: 0 },
      }
      channels.set(id, channel)
    }
    return channel
  }

  return {
    /**
     * Writes `message` from `from`; the other side reads it. `client` names the caller (its IP
     * address). With `once`, a second message under the same key on this channel is refused (409).
     */
    post(id: string, from: Side, message: unknown, client = 'local', options: { once?: string } = {}): void {
      let json: string | undefined
      try {
        json = JSON.stringify(message)
      } catch {
        // Nested too deeply to write back (a RangeError), or not JSON at all.
        throw new ChannelError(400, 'A message is a JSON value')
      }
      if (json === undefined) throw new ChannelError(400, 'A message is a JSON value')
      const bytes = new TextEncoder().encode(json).byteLength
      if (bytes > l.messageBytes) throw new ChannelError(413, `A message is at most ${l.messageBytes} bytes`)
      const channel = open(id, client)
      if (channel.sent[from].length >= l.messagesPerSide) throw new ChannelError(429, 'This channel is full')
      if (options.once !== undefined && channel.once.has(options.once)) throw new ChannelError(409, 'Already sent on this channel')
      if ((held.get(client) ?? 0) + bytes > l.bytesPerClient) throw new ChannelError(429, 'Too much stored for this client: try again later')
      if (total + bytes > l.bytes) throw new ChannelError(503, 'The channel store is full: try again shortly')
      if (options.once !== undefined) channel.once.add(options.once)
      channel.sent[from].push({ json, bytes, client })
      held.set(client, (held.get(client) ?? 0) + bytes)
      total += bytes
      for (const wake of channel.waiting[other(from)]) wake()
    },

    /** Whether `post` would take a message under `once` now (checked before the work that makes it). */
    accepts(id: string, from: Side, once: string): boolean {
      if (!channelIdPattern.test(id)) return false
      sweep()
      if (expired.has(id)) return false
      const channel = channels.get(id)
      return !channel || (!channel.once.has(once) && channel.sent[from].length < l.messagesPerSide)
    },

    /**
     * What the other side wrote from index `after` on, and whether it is still there. Waits up to
     * `waitMs` (or until `signal` aborts) when there is nothing yet; `next` is where to read from next.
     * Reading opens the channel: a window may start reading before the other side has written.
     */
    async read(
      id: string,
      to: Side,
      after: number,
      options: { signal?: AbortSignal | undefined; waitMs?: number | undefined; client?: string } = {},
    ): Promise<{ messages: unknown[]; next: number; peer: Peer }> {
      if (!Number.isSafeInteger(after) || after < 0) throw new ChannelError(400, 'after must be a non-negative integer')
      const from = other(to)
      const channel = open(id, options.client ?? 'local')
      const take = () => {
        channel.seen[to] = now()
        // Parsed per read: the text is what stays in memory.
        const messages = channel.sent[from].slice(after).map((message) => JSON.parse(message.json) as unknown)
        for (const [i, message] of messages.entries()) if (isKeyHandoff(message)) spend(channel.sent[from][after + i]!)
        const reading = channel.waiting[from].size > 0 || now() - channel.seen[from] < l.goneMs
        const peer: Peer = channel.seen[from] === 0 ? 'unseen' : reading ? 'here' : 'gone'
        return { messages, next: after + messages.length, peer }
      }
      const wait = Math.min(l.waitMs, Math.max(0, options.waitMs ?? l.waitMs), Math.max(0, channel.expiresAt - now()))
      const first = take()
      if (first.messages.length > 0 || wait === 0) return first
      if (channel.waiting[to].size >= 4) throw new ChannelError(429, 'Too many readers on this channel')
      const { signal } = options
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer)
          channel.waiting[to].delete(done)
          signal?.removeEventListener('abort', done)
          resolve()
        }
        const timer = setTimeout(done, wait)
        channel.waiting[to].add(done)
        signal?.addEventListener('abort', done)
      })
      return take()
    },

    /** Channels open now (for tests and the load benchmark). */
    size: () => {
      sweep()
      return channels.size
    },
    /** Bytes of messages stored now, in all. */
    bytes: () => {
      sweep()
      return total
    },
  }
}
