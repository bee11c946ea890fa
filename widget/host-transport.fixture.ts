import { connect, type Messenger } from 'penpal'
import { type HostMethods, serve, widgetChecks, type WidgetMethods } from '../bridge/index.ts'
import type { Transport } from '../bridge/transport.ts'

/** A call of the host page, checked against the bridge's table (bridge/serve.ts widgetChecks). */
export type HostCall = { [K in keyof WidgetMethods]: { name: K; args: Parameters<WidgetMethods[K]> } }[keyof WidgetMethods]

/** What the frame tells the host page without waiting for a decision: visibility, events, a URL to open. */
export type HostNotice = { [K in 'setVisible' | 'emit' | 'openUrl']: { name: K; args: Parameters<HostMethods[K]> } }['setVisible' | 'emit' | 'openUrl']

/**
 * Test support: the frame's end of the bridge to its host page (Penpal 7 over `messenger`, with the
 * bridge's real checks and `serve`, as widget/bridge.ts sets it up) seen as a transport
 * (bridge/transport.ts), so the contract suite runs over Penpal itself. The frame does not use it:
 * its bridge is calls with answers (a request's result goes back to the page), which a one-way
 * transport does not carry.
 * Each call of the host that passes the bridge's checks is one message, answered `null` once read;
 * a call that does not (an unknown method, wrong arguments) is answered with its error by the
 * bridge's `serve` and never read. The channel ends when the host destroys its connection
 * (Penpal's DESTROY); from then on posts reject.
 */
export function hostTransport(messenger: Messenger): Transport<HostNotice, HostCall> {
  const readers = new Set<{ message(call: HostCall): void; ended?(): void }>()
  let over = false
  const deliver = (call: HostCall) => {
    for (const reader of [...readers]) reader.message(call)
    return null
  }
  const handlers: { [K in keyof WidgetMethods]: (...args: Parameters<WidgetMethods[K]>) => unknown } = {
    hello: (...args) => deliver({ name: 'hello', args }),
    request: (...args) => deliver({ name: 'request', args }),
    open: (...args) => deliver({ name: 'open', args }),
    close: () => deliver({ name: 'close', args: [] }),
    disconnect: () => deliver({ name: 'disconnect', args: [] }),
    setWallets: (...args) => deliver({ name: 'setWallets', args }),
    identityToken: (...args) => deliver({ name: 'identityToken', args }),
    connectAnswer: (...args) => deliver({ name: 'connectAnswer', args }),
  }
  // Added before Penpal's own handler: the host's DESTROY is seen here too.
  messenger.addMessageHandler((message) => {
    if (message.type !== 'DESTROY' || over) return
    over = true
    for (const reader of [...readers]) {
      readers.delete(reader)
      reader.ended?.()
    }
  })
  const connection = connect<HostMethods>({ messenger, methods: serve(widgetChecks, handlers) })
  return {
    async post({ name, args }) {
      if (over) throw new Error('The host page has ended the connection')
      const remote = await connection.promise
      await (remote[name] as (...a: unknown[]) => Promise<unknown>)(...args)
    },
    listen(reader) {
      const own = { ...reader }
      if (!over) readers.add(own)
      return () => void readers.delete(own)
    },
  }
}
