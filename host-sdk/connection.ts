import {
  dispatch,
  ErrorCode,
  fail,
  hostChecks,
  isResult,
  PROTOCOL_VERSION,
  type Fail,
  type HostMethods,
  type Result,
  type Welcome,
  type WidgetMethods,
} from '../bridge/index.ts'
import { openChannel } from './channel.ts'
import { disconnected } from './errors.ts'
import type { Frame } from './frame.ts'

export type Connection = {
  /** Calls a widget method once the handshake is done (calls made before are queued). Never throws. */
  call<K extends keyof WidgetMethods>(name: K, args: Parameters<WidgetMethods[K]>, timeout?: number): Promise<Result>
  destroy(): void
}

export type ConnectOptions = {
  frame: Frame
  providerOrigin: string
  host: { [K in keyof HostMethods]: (...args: Parameters<HostMethods[K]>) => unknown }
  handshakeTimeout: number
  /** Why the handshake may have failed (filled in from CSP violation reports). */
  diagnose: () => string
  /** Runs after every successful handshake (the first, and again after the frame reloads), with the frame's welcome. */
  ready?: (welcome: Welcome) => void
}

/**
 * The bridge to the widget, restricted to the provider origin. After the transport's handshake the
 * host says `hello` with its protocol version; a refusal or mismatch fails every call with 4900.
 * When the frame reloads, calls in flight are rejected with 4900 and later calls wait for the new
 * frame's handshake.
 */
export function connectWidget(options: ConnectOptions): Connection {
  const { handshakeTimeout } = options
  let settle: ((outcome: Fail | null) => void) | undefined
  let timer: ReturnType<typeof setTimeout> | undefined
  let handshake: Promise<Fail | null>
  const malformed = fail(ErrorCode.internal, 'Malformed answer from the wallet frame')

  /** Calls made from now on wait for the next handshake (calls in flight are the channel's to reject). */
  const start = () => {
    handshake = new Promise((resolve) => (settle = resolve))
    clearTimeout(timer)
    timer = setTimeout(
      () => finish({ error: disconnected(`Wallet frame did not connect within ${handshakeTimeout} ms. ${options.diagnose()}`) }),
      handshakeTimeout,
    )
  }

  /** Settles the current handshake; a frame that answers after the timeout still gets used. */
  const finish = (outcome: Fail | null) => {
    clearTimeout(timer)
    if (settle) settle(outcome)
    else if (!outcome) handshake = Promise.resolve(null)
    settle = undefined
  }

  const channel = openChannel({
    remote: () => options.frame.element.contentWindow,
    origin: options.providerOrigin,
    answer: (name, args) => dispatch(hostChecks, options.host, name, args),
    async connected() {
      const welcome = await channel.call('hello', [{ protocol: PROTOCOL_VERSION }], handshakeTimeout).catch(() => null)
      const outcome = isResult(welcome) ? ('error' in welcome ? welcome : null) : malformed
      finish(outcome)
      if (!outcome) options.ready?.((welcome as { result: Welcome }).result)
    },
    restarted: start,
  })
  start()

  return {
    async call(name, args, timeout) {
      const failure = await handshake
      if (failure) return failure
      try {
        const answer = await channel.call(name, args, timeout)
        return isResult(answer) ? answer : malformed
      } catch (err) {
        const { name, message } = err as Error
        // Arguments that cannot cross (DataCloneError) are the caller's mistake: the frame is still there.
        return { error: name === 'DataCloneError' ? { code: ErrorCode.invalidParams, message } : disconnected(message) }
      }
    },
    destroy() {
      finish({ error: disconnected('Wallet kit destroyed') })
      channel.destroy()
    },
  }
}
