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
import { disconnected } from './provider.ts'

/**
 * The host's connection to the wallet frame, in three layers read top-down: the frame element
 * (`mountFrame`), the Penpal wire to it (`openChannel`) and the bridge on that wire
 * (`connectWidget`: the hello, the queue before the handshake, every call answered as a `Result`).
 */

/**
 * The widget iframe: preloaded hidden, shown full-viewport over the page with a transparent
 * background when the widget asks. While shown, page scroll is locked and focus moves into the
 * frame; on hide both are given back.
 */
export type Frame = {
  readonly element: HTMLIFrameElement
  setVisible(visible: boolean): void
  remove(): void
}

const hidden = 'display:none'
// color-scheme normal: a frame whose scheme differs from the page's gets an opaque backdrop.
const shown = 'position:fixed;inset:0;width:100%;height:100%;border:0;background:none;color-scheme:normal;z-index:2147483647'

export function mountFrame(src: string, onVisible: (visible: boolean) => void): Frame {
  const element = document.createElement('iframe')
  element.src = src
  element.title = 'Wallet'
  element.dataset.testid = 'wallet-kit-frame'
  // Passkeys: the frame's own origin may run WebAuthn ceremonies (an engine may still refuse them in a frame).
  element.allow = 'clipboard-write;publickey-credentials-get;publickey-credentials-create'
  element.style.cssText = hidden
  // kit.js may run in <head>, before <body> exists.
  const attach = () => document.body.appendChild(element)
  if (document.body) attach()
  else document.addEventListener('DOMContentLoaded', attach, { once: true })

  const root = document.documentElement.style
  let restoreFocus: HTMLElement | null = null
  let restoreOverflow = ''
  let visible = false

  function setVisible(show: boolean): void {
    if (show === visible) return
    visible = show
    if (show) {
      restoreFocus = document.activeElement as HTMLElement | null
      restoreOverflow = root.overflow
      root.overflow = 'hidden'
      element.style.cssText = shown
      element.focus()
    } else {
      element.style.cssText = hidden
      root.overflow = restoreOverflow
      restoreFocus?.focus()
    }
    onVisible(show)
  }

  return {
    element,
    setVisible,
    remove() {
      setVisible(false)
      element.remove()
    },
  }
}

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
type Channel = {
  /** Rejects at once when no handshake has completed; the connection layer queues before that. */
  call(name: string, args: readonly unknown[], timeout?: number): Promise<unknown>
  destroy(): void
}

type Message = { namespace?: unknown; channel?: unknown; type?: unknown; [key: string]: unknown }
type Pending = { resolve(value: unknown): void; reject(error: Error): void }

const namespace = 'penpal'

function openChannel(options: {
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

  /** Counts handshakes: a hello answered (or cancelled) after the frame reloaded is an earlier frame's, and settles nothing. */
  let generation = 0

  /**
   * Calls made from now on wait for the next handshake (calls in flight are the channel's to reject).
   * Calls still waiting for a handshake that never finished keep waiting, for this one.
   */
  const start = () => {
    generation++
    if (!settle) handshake = new Promise((resolve) => (settle = resolve))
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
      const mine = generation
      const welcome = await channel.call('hello', [{ protocol: PROTOCOL_VERSION }], handshakeTimeout).catch(() => null)
      if (mine !== generation) return
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
