/**
 * The host side of Penpal 7's wire protocol; the widget runs Penpal itself. The library costs
 * 3.2 KB gzipped, near half of the provider's 7.5 KB budget, for features the host does not use
 * (nested method paths, transferables, protocol downgrades, logging); this is the part it does use.
 *
 * Handshake (window messages): each side sends SYN with a participant id; the greater id leads and
 * sends ACK1; the other answers ACK2 with a new MessagePort. Calls and replies then go over the
 * port. The host's id is '', below any id Penpal makes (a UUID), so the frame always leads and the
 * host only ever answers an ACK1: it needs no code to lead, and an ACK2 sent to it is ignored. A
 * SYN from a new participant id means the frame reloaded: `restarted` runs and the handshake starts
 * again. Only messages from the frame's window and origin are read.
 */
export type Channel = {
  /** Rejects at once when no handshake has completed; the connection layer queues before that. */
  call(name: string, args: readonly unknown[], timeout?: number): Promise<unknown>
  destroy(): void
}

type Message = { namespace?: unknown; channel?: unknown; type?: unknown; [key: string]: unknown }
type Pending = { resolve(value: unknown): void; reject(error: Error): void }

const namespace = 'penpal'

export function openChannel(options: {
  remote: () => Window | null
  origin: string
  /** Answers the widget's calls; never throws (bridge/serve.ts). */
  answer: (name: string, args: unknown[]) => Promise<unknown>
  connected: () => void
  restarted: () => void
}): Channel {
  // A call's id only has to be unique on this port, which no one else can read: a counter (a
  // random id per call cost more than the rest of the call on the host's side).
  let lastCallId = 0
  const pending = new Map<unknown, Pending>()
  let remoteId: unknown
  let port: MessagePort | undefined

  const post = (message: Record<string, unknown>, transfer?: Transferable[]) =>
    options.remote()?.postMessage({ namespace, ...message }, options.origin, transfer)
  const send = (message: Record<string, unknown>) => port!.postMessage({ namespace, ...message })

  const close = (reason: string) => {
    port?.close()
    port = undefined
    for (const call of pending.values()) call.reject(new Error(reason))
    pending.clear()
  }

  const onWindow = (event: MessageEvent<Message>) => {
    const { data } = event
    if (event.source !== options.remote() || event.origin !== options.origin || data?.namespace !== namespace || data.channel !== undefined) return
    if (data.type === 'SYN') {
      if (data.participantId === remoteId) return
      if (remoteId !== undefined) {
        close('The wallet frame reloaded: the request was cancelled, please retry')
        options.restarted()
      }
      remoteId = data.participantId
      post({ type: 'SYN', participantId: '' })
    } else if (data.type === 'ACK1') {
      const { port1: next, port2 } = new MessageChannel()
      post({ type: 'ACK2' }, [port2])
      port = next
      port.onmessage = async ({ data }: MessageEvent<Message>) => {
        if (data?.namespace !== namespace) return
        if (data.type === 'CALL') {
          // A nested method path names no bridge method: answered 4200. Nothing else is made a string
          // (String() on an object whose toString is not a function throws, and the call would hang).
          const path = data.methodPath
          const name = Array.isArray(path) && path.every((p) => typeof p === 'string') ? path.join('.') : ''
          const value = await options.answer(name, Array.isArray(data.args) ? data.args : [])
          if (port === next) send({ type: 'REPLY', callId: data.id, value })
        } else if (data.type === 'REPLY') {
          const call = pending.get(data.callId)
          pending.delete(data.callId)
          const message = (data.value as { message?: unknown } | null)?.message
          if (data.isError) call?.reject(new Error(typeof message === 'string' ? message : 'Wallet frame error'))
          else call?.resolve(data.value)
        }
        // DESTROY is not handled: the widget never ends the connection itself.
      }
      options.connected()
    }
  }

  // No opening SYN: the frame is created with the channel, so it always speaks first.
  window.addEventListener('message', onWindow)

  return {
    async call(name, args, timeout) {
      if (!port) throw new Error('Wallet frame unreachable')
      const callId = ++lastCallId
      // Sent first: arguments postMessage cannot clone (a function, a symbol) throw here, which
      // rejects this call, with no timer or pending entry left behind.
      send({ type: 'CALL', id: callId, methodPath: [name], args })
      return new Promise((resolve, reject) => {
        const timer =
          timeout === undefined
            ? undefined
            : setTimeout(() => {
                pending.delete(callId)
                reject(new Error(`The wallet frame did not answer ${name} within ${timeout} ms`))
              }, timeout)
        const done =
          <T>(fn: (v: T) => void) =>
          (v: T) => {
            clearTimeout(timer)
            fn(v)
          }
        pending.set(callId, { resolve: done(resolve), reject: done(reject) })
      })
    },
    destroy() {
      // No DESTROY message: the frame is removed with the kit.
      close('Wallet kit destroyed')
      window.removeEventListener('message', onWindow)
    },
  }
}
