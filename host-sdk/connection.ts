import { CallOptions, connect, WindowMessenger, type RemoteProxy } from 'penpal'
import {
  ErrorCode,
  fail,
  hostChecks,
  isResult,
  PROTOCOL_VERSION,
  serve,
  type Fail,
  type HostMethods,
  type Result,
  type WidgetMethods,
} from '../bridge/index.ts'
import { disconnected } from './errors.ts'
import type { Frame } from './frame.ts'

export type Connection = {
  /** Calls a widget method once the handshake is done (calls made before are queued). Never throws. */
  call<K extends keyof WidgetMethods>(
    name: K,
    args: Parameters<WidgetMethods[K]>,
    timeout?: number,
  ): Promise<Result>
  destroy(): void
}

export type ConnectOptions = {
  frame: Frame
  providerOrigin: string
  host: { [K in keyof HostMethods]: (...args: Parameters<HostMethods[K]>) => unknown }
  handshakeTimeout: number
  /** Why the handshake may have failed (filled in from CSP violation reports). */
  diagnose: () => string
}

/**
 * Penpal connection to the widget, restricted to the provider origin. After Penpal's own
 * handshake the host says `hello` with its protocol version; a mismatch fails every call with 4900.
 */
export function connectWidget(options: ConnectOptions): Connection {
  const { frame, providerOrigin, handshakeTimeout } = options
  let connection: ReturnType<typeof connect<WidgetMethods>> | undefined
  let destroyed = false
  const connected = frame.attached.then(() => {
    if (destroyed) throw new Error('destroyed')
    connection = connect<WidgetMethods>({
      messenger: new WindowMessenger({ remoteWindow: frame.element.contentWindow!, allowedOrigins: [providerOrigin] }),
      methods: serve(hostChecks, options.host),
      timeout: handshakeTimeout,
    })
    return connection.promise
  })

  const ready: Promise<RemoteProxy<WidgetMethods> | Fail> = connected.then(
    async (remote) => {
      const welcome = await remote.hello({ protocol: PROTOCOL_VERSION }, new CallOptions({ timeout: handshakeTimeout }))
      if (!isResult(welcome)) return fail(ErrorCode.disconnected, 'Wallet frame answered the handshake with a malformed message')
      return 'error' in welcome ? welcome : remote
    },
    () => ({ error: disconnected(`Wallet frame did not connect within ${handshakeTimeout} ms. ${options.diagnose()}`) }),
  )

  return {
    async call(name, args, timeout) {
      const remote = await ready
      if ('error' in remote) return remote as Fail
      try {
        const method = remote[name] as (...a: unknown[]) => Promise<unknown>
        const answer = await method(...args, new CallOptions(timeout ? { timeout } : {}))
        return isResult(answer) ? answer : fail(ErrorCode.internal, `Malformed answer from wallet frame to ${name}`)
      } catch (err) {
        return { error: disconnected(`Wallet frame unreachable: ${(err as Error).message}`) }
      }
    },
    destroy() {
      destroyed = true
      connection?.destroy()
    },
  }
}
