import { checkParams, checkRpcRequest, methodOf, PROTOCOL_VERSION, type Result } from '../bridge/index.ts'

/**
 * Test support: the wallet frame's end of Penpal 7's wire protocol, written out frame by frame, so a
 * test can send the host SDK (channel.ts, connection.ts, kit.ts) any frame at all. It answers the
 * host's calls as the widget does at its surface: the protocol version and offered chains, the
 * method table's checks (bridge/rpc-methods.ts), a result for reads and a 4001 for anything that
 * would need the user. Messages reach the host as `message` events on the global (happy-dom) window.
 */
export type Frame = {
  namespace?: unknown
  type?: unknown
  id?: unknown
  callId?: unknown
  methodPath?: unknown
  args?: unknown
  value?: unknown
  [key: string]: unknown
}

export const namespace = 'penpal'

/** What the widget answers for `request`. */
function answer(name: string, args: unknown[]): Result {
  if (name === 'hello') return { result: { protocol: PROTOCOL_VERSION, chains: [31337, 31338] } }
  if (name !== 'request') return { result: null }
  const request = args[0] as { method: string; params?: unknown }
  const known = checkRpcRequest(request) === undefined ? methodOf(request.method) : undefined
  if (!known) return { error: { code: 4200, message: 'Unsupported method' } }
  const bad = checkParams(known[0], request.params)
  if (bad) return { error: { code: -32602, message: bad } }
  if (request.method === 'eth_chainId') return { result: '0x7a69' }
  if (request.method === 'eth_accounts') return { result: [] }
  return known[1] === 'read' ? { result: '0x1' } : { error: { code: 4001, message: 'User rejected the request' } }
}

export function penpalFrame(providerOrigin: string) {
  const frameWindow = { origin: providerOrigin } as Window & { origin: string }
  /** What the host posted to the frame's window (SYN, ACK1, …). */
  const posted: Frame[] = []
  /** The host's calls to the frame (hello, request, setWallets, …). */
  const hostCalls: Frame[] = []
  /** Replies no call of ours is waiting for. */
  const orphans: Frame[] = []
  const waiting = new Map<string, (reply: Frame) => void>()
  let port: MessagePort | undefined
  const key = (id: unknown) => `${typeof id}:${String(id)}`

  const deliver = (data: unknown, options: { origin?: string; source?: unknown; ports?: MessagePort[] } = {}) =>
    window.dispatchEvent(
      new MessageEvent('message', {
        data,
        origin: options.origin ?? providerOrigin,
        source: ('source' in options ? options.source : frameWindow) as never,
        ports: options.ports ?? [],
      }),
    )

  frameWindow.postMessage = ((message: Frame, targetOrigin: string) => {
    const data = structuredClone(message)
    posted.push(data)
    if (targetOrigin !== providerOrigin) return
    // The host leads the handshake (our id sorts below any UUID): it sends ACK1, we open the port.
    if (data.type !== 'ACK1' || port) return
    setTimeout(() => {
      const channel = new MessageChannel()
      port = channel.port1
      port.onmessage = ({ data: frame }: MessageEvent<Frame>) => {
        if (frame?.type === 'CALL') {
          hostCalls.push(frame)
          const name = Array.isArray(frame.methodPath) ? String(frame.methodPath[0]) : ''
          const reply = api.reply?.(name) ?? { value: answer(name, frame.args as unknown[]) }
          port!.postMessage({ namespace, type: 'REPLY', callId: frame.id, ...reply })
        } else if (frame?.type === 'REPLY') {
          const done = waiting.get(key(frame.callId))
          waiting.delete(key(frame.callId))
          if (done) done(frame)
          else orphans.push(frame)
        }
      }
      deliver({ namespace, type: 'ACK2' }, { ports: [channel.port2] })
    })
  }) as Window['postMessage']

  let ids = 0
  const api = {
    /** When set and answering, the REPLY's `value` and `isError` for a call of `name` instead of the widget's answer. */
    reply: undefined as ((name: string) => { value: unknown; isError?: boolean } | undefined) | undefined,
    frameWindow,
    posted,
    hostCalls,
    orphans,
    /** The frame's document has loaded: it says SYN. */
    start() {
      deliver({ namespace, type: 'SYN', participantId: '0' })
    },
    raw(frame: unknown) {
      port!.postMessage(frame)
    },
    /** A CALL frame to the host; resolves with its REPLY frame, or `timeout`. */
    call(methodPath: unknown, args: unknown, options: { id?: unknown; timeout?: number } = {}): Promise<Frame | 'timeout'> {
      const id = options.id ?? `frame-call-${++ids}`
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(key(id))
          resolve('timeout')
        }, options.timeout ?? 5_000)
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
  return api
}
