/**
 * Test support: the host page's end of Penpal 7's wire protocol, written out frame by frame, so a
 * test can send the widget's bridge (widget/bridge.ts, the real Penpal) any frame at all: calls with
 * odd method paths and arguments, frames of unknown types, window messages from other windows.
 * Messages reach the widget as `message` events on the global (happy-dom) window, with the host's
 * fake window as `source`; the widget posts to that fake window, installed as `window.parent`.
 */
export type Frame = { namespace?: unknown; type?: unknown; callId?: unknown; value?: unknown; isError?: unknown; [key: string]: unknown }

export const namespace = 'penpal'

export function penpalHost(hostOrigin: string) {
  const hostWindow = { origin: hostOrigin } as Window & { origin: string }
  /** Everything the widget posted to the host's window (SYN, ACK1). */
  const posted: Frame[] = []
  /** Calls the widget made to the host (emit, setVisible, …), answered with a null result. */
  const widgetCalls: Frame[] = []
  /** Replies no call of ours is waiting for. */
  const orphans: Frame[] = []
  const waiting = new Map<string, (reply: Frame) => void>()
  let port: MessagePort | undefined
  let connected: () => void = () => {}
  const ready = new Promise<void>((resolve) => (connected = resolve))

  const deliver = (data: unknown, options: { origin?: string; source?: unknown; ports?: MessagePort[] } = {}) =>
    window.dispatchEvent(
      new MessageEvent('message', {
        data,
        origin: options.origin ?? hostOrigin,
        source: ('source' in options ? options.source : hostWindow) as never,
        ports: options.ports ?? [],
      }),
    )
  const key = (id: unknown) => `${typeof id}:${String(id)}`

  hostWindow.postMessage = ((message: Frame, options: WindowPostMessageOptions = {}) => {
    const data = structuredClone(message)
    posted.push(data)
    if (options.targetOrigin !== '*' && options.targetOrigin !== hostOrigin) return
    setTimeout(() => {
      // The widget leads the handshake: our id sorts below any UUID.
      if (data.type === 'SYN' && !port) deliver({ namespace, type: 'SYN', participantId: '0' })
      if (data.type === 'ACK1' && !port) {
        const channel = new MessageChannel()
        port = channel.port1
        port.onmessage = ({ data: frame }: MessageEvent<Frame>) => {
          if (frame?.type === 'CALL') {
            widgetCalls.push(frame)
            port!.postMessage({ namespace, type: 'REPLY', callId: frame.id, value: { result: null } })
          } else if (frame?.type === 'REPLY') {
            const done = waiting.get(key(frame.callId))
            waiting.delete(key(frame.callId))
            if (done) done(frame)
            else orphans.push(frame)
          }
        }
        deliver({ namespace, type: 'ACK2' }, { ports: [channel.port2] })
        connected()
      }
    })
  }) as Window['postMessage']

  let ids = 0
  return {
    hostWindow,
    posted,
    widgetCalls,
    orphans,
    ready,
    /** Sends a frame on the connected port. */
    raw(frame: unknown) {
      port!.postMessage(frame)
    },
    /** A CALL frame; resolves with the REPLY frame, or `timeout` when none came. */
    call(methodPath: unknown, args: unknown, options: { id?: unknown; timeout?: number } = {}): Promise<Frame | 'timeout'> {
      const id = options.id ?? `call-${++ids}`
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
}
