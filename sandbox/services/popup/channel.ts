/**
 * The popup channel: a short-lived mailbox between the wallet frame and the secure window (the popup)
 * it opened, kept on the provider's own server. A host page with `Cross-Origin-Opener-Policy` cuts
 * the popup off from its opener, and a partitioned or blocked third-party storage keeps the frame and
 * the popup apart, so neither postMessage nor BroadcastChannel can carry this: the server can.
 *
 * A channel is named by 32 random bytes the frame made (it travels in the popup's URL fragment, never
 * through the host page): knowing the name is the only key. Each side reads what the other wrote,
 * never its own. Everything is in memory, bounded, and gone after `ttlMs`.
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
}

export const defaultChannelLimits: ChannelLimits = {
  ttlMs: 10 * 60_000,
  messagesPerSide: 64,
  messageBytes: 16 * 1024,
  channels: 5_000,
  channelsPerClient: 60,
  waitMs: 20_000,
  goneMs: 2_000,
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
    readonly status: 400 | 413 | 429 | 503,
    message: string,
  ) {
    super(message)
  }
}

type Channel = {
  expiresAt: number
  /** Messages written by each side. */
  sent: Record<Side, unknown[]>
  /** Readers waiting for the other side's next message. */
  waiting: Record<Side, Set<() => void>>
  /** When each side last read (0: never). */
  seen: Record<Side, number>
}

export type PopupChannels = ReturnType<typeof createPopupChannels>

const other = (side: Side): Side => (side === 'frame' ? 'popup' : 'frame')

export function createPopupChannels(limits: Partial<ChannelLimits> = {}, now: () => number = Date.now) {
  const l = { ...defaultChannelLimits, ...limits }
  const channels = new Map<string, Channel>()
  /** When each client opened its recent channels. */
  const opened = new Map<string, number[]>()

  const sweep = () => {
    const t = now()
    for (const [client, times] of opened) {
      const recent = times.filter((at) => t - at < l.ttlMs)
      if (recent.length) opened.set(client, recent)
      else opened.delete(client)
    }
    for (const [id, channel] of channels) {
      if (channel.expiresAt > t) continue
      channels.delete(id)
      for (const wake of [...channel.waiting.frame, ...channel.waiting.popup]) wake()
    }
  }

  const open = (id: string, client: string): Channel => {
    if (!channelIdPattern.test(id)) throw new ChannelError(400, 'Invalid channel')
    sweep()
    let channel = channels.get(id)
    if (!channel) {
      const recent = opened.get(client) ?? []
      if (recent.length >= l.channelsPerClient) throw new ChannelError(429, 'Too many channels opened: try again later')
      if (channels.size >= l.channels) throw new ChannelError(503, 'Too many open channels: try again shortly')
      opened.set(client, [...recent, now()])
      channel = {
        expiresAt: now() + l.ttlMs,
        sent: { frame: [], popup: [] },
        waiting: { frame: new Set(), popup: new Set() },
        seen: { frame: 0, popup: 0 },
      }
      channels.set(id, channel)
    }
    return channel
  }

  return {
    /** Writes `message` from `from`; the other side reads it. `client` names the caller (its IP address). */
    post(id: string, from: Side, message: unknown, client = 'local'): void {
      const json = JSON.stringify(message)
      if (json === undefined) throw new ChannelError(400, 'A message is a JSON value')
      if (new TextEncoder().encode(json).byteLength > l.messageBytes) throw new ChannelError(413, `A message is at most ${l.messageBytes} bytes`)
      const channel = open(id, client)
      if (channel.sent[from].length >= l.messagesPerSide) throw new ChannelError(429, 'This channel is full')
      // Stored as parsed JSON: what a reader gets is what any JSON reader would have seen.
      channel.sent[from].push(JSON.parse(json))
      for (const wake of channel.waiting[other(from)]) wake()
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
        const messages = channel.sent[from].slice(after)
        const reading = channel.waiting[from].size > 0 || now() - channel.seen[from] < l.goneMs
        const peer: Peer = channel.seen[from] === 0 ? 'unseen' : reading ? 'here' : 'gone'
        return { messages, next: after + messages.length, peer }
      }
      const wait = Math.min(l.waitMs, Math.max(0, options.waitMs ?? l.waitMs), Math.max(0, channel.expiresAt - now()))
      if (take().messages.length > 0 || wait === 0) return take()
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
    size: () => (sweep(), channels.size),
  }
}
