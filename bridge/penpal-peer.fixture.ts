/**
 * Test support: one end of Penpal 7's wire protocol, written out frame by frame, so a test can send
 * the real other end any frame at all: calls with odd method paths and arguments, frames of unknown
 * types, window messages from other windows. It plays the wallet frame to the host SDK
 * (host-sdk/connection.ts) or the host page to the widget's bridge (widget/bridge.ts, the real Penpal).
 *
 * Our messages reach the real end as `message` events on the global (happy-dom) window, from our fake
 * window (`window` below: make it the iframe's contentWindow, or the frame's `window.parent`). What
 * the real end posts to that fake window is recorded, and reaches us when addressed to our origin or
 * to any ('*'), as a browser delivers it.
 */
export type Frame = {
  namespace?: unknown
  type?: unknown
  id?: unknown
  callId?: unknown
  methodPath?: unknown
  args?: unknown
  value?: unknown
  isError?: unknown
  [key: string]: unknown
}

export const namespace = 'penpal'

/** A REPLY's payload: the answer, and whether it is a thrown error. */
export type Reply = { value: unknown; isError?: boolean }

export function penpalPeer(options: {
  /**
   * The end we play. Our participant id ('0') sorts below any UUID, so a real end with one leads: it
   * sends ACK1 and we open the port (ACK2). The host SDK says '' (it never leads): then we lead, as
   * Penpal does, and take the port its ACK2 carries. As the host we answer the widget's SYN with
   * ours; as the frame we say SYN when the test calls `start()` (the frame's document has loaded).
   */
  role: 'host' | 'frame'
  /** Our origin: the one our messages come from, and the one the real end must address. */
  origin: string
  /** What we answer to a call of `name` by the real end; `{ result: null }` when unset. */
  answer?: (name: string, args: unknown[]) => Reply
}) {
  const own = { origin: options.origin } as Window & { origin: string }
  /** Everything the real end posted to our window (SYN, ACK1, …). */
  const posted: Frame[] = []
  /** The real end's calls to us, as they arrived. */
  const calls: Frame[] = []
  /** Replies no call of ours is waiting for. */
  const orphans: Frame[] = []
  const waiting = new Map<string, (reply: Frame) => void>()
  const key = (id: unknown) => `${typeof id}:${String(id)}`
  let port: MessagePort | undefined
  let connected: () => void = () => {}
  const ready = new Promise<void>((resolve) => (connected = resolve))

  const deliver = (data: unknown, from: { origin?: string; source?: unknown; ports?: MessagePort[] } = {}) =>
    window.dispatchEvent(
      new MessageEvent('message', {
        data,
        origin: from.origin ?? options.origin,
        source: ('source' in from ? from.source : own) as never,
        ports: from.ports ?? [],
      }),
    )

  const onPort = ({ data: frame }: MessageEvent<Frame>) => {
    if (frame?.type === 'CALL') {
      calls.push(frame)
      const name = Array.isArray(frame.methodPath) ? String(frame.methodPath[0]) : ''
      const reply = peer.reply?.(name) ?? options.answer?.(name, frame.args as unknown[]) ?? { value: { result: null } }
      port!.postMessage({ namespace, type: 'REPLY', callId: frame.id, ...reply })
    } else if (frame?.type === 'REPLY') {
      const done = waiting.get(key(frame.callId))
      waiting.delete(key(frame.callId))
      if (done) done(frame)
      else orphans.push(frame)
    }
  }

  // The host SDK posts with a target origin, Penpal with `{ targetOrigin }`.
  own.postMessage = ((message: Frame, target?: string | WindowPostMessageOptions, transfer?: Transferable[]) => {
    const data = structuredClone(message)
    posted.push(data)
    const targetOrigin = typeof target === 'string' ? target : target?.targetOrigin
    if (targetOrigin !== '*' && targetOrigin !== options.origin) return
    setTimeout(() => {
      if (port) return
      if (data.type === 'SYN' && options.role === 'host') peer.start()
      // The other end's id sorts below ours: we lead, and its ACK2 brings the port.
      if (data.type === 'SYN' && typeof data.participantId === 'string' && '0' > data.participantId) deliver({ namespace, type: 'ACK1', methodPaths: [] })
      const transferred = transfer?.[0] as MessagePort | undefined
      if (data.type === 'ACK2' && transferred) {
        port = transferred
        port.onmessage = onPort
        connected()
      }
      if (data.type !== 'ACK1') return
      const channel = new MessageChannel()
      port = channel.port1
      port.onmessage = onPort
      deliver({ namespace, type: 'ACK2' }, { ports: [channel.port2] })
      connected()
    })
  }) as Window['postMessage']

  let ids = 0
  const peer = {
    /** When set and answering, the REPLY for a call of `name` instead of `answer`'s. */
    reply: undefined as ((name: string) => Reply | undefined) | undefined,
    /** Our fake window. */
    window: own,
    posted,
    calls,
    orphans,
    /** Settles once the port is open (we sent ACK2). */
    ready,
    /** Says SYN: our end has loaded. */
    start() {
      deliver({ namespace, type: 'SYN', participantId: '0' })
    },
    /** Sends a frame on the connected port. */
    raw(frame: unknown) {
      port!.postMessage(frame)
    },
    /** A CALL frame to the real end; resolves with its REPLY frame, or `timeout` when none came. */
    call(methodPath: unknown, args: unknown, callOptions: { id?: unknown; timeout?: number } = {}): Promise<Frame | 'timeout'> {
      const id = callOptions.id ?? `call-${++ids}`
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(key(id))
          resolve('timeout')
        }, callOptions.timeout ?? 5_000)
        waiting.set(key(id), (reply) => {
          clearTimeout(timer)
          resolve(reply)
        })
        port!.postMessage({ namespace, type: 'CALL', id, methodPath, args })
      })
    },
    /** A window message as if posted by `source` (default: a stranger window) from `origin`. */
    fromWindow(data: unknown, origin: string, source: unknown = { origin }, ports: MessagePort[] = []) {
      deliver(data, { origin, source, ports })
    },
    close() {
      port?.close()
    },
  }
  return peer
}
