import { checkFrameOpenUrl } from '../bridge/open-url.ts'
import { connect, WindowMessenger } from 'penpal'
import {
  checkExternalConnection,
  ErrorCode,
  fail,
  isResult,
  negotiate,
  serve,
  widgetChecks,
  type ExternalConnection,
  type HostMethods,
  type Result,
  type WidgetMethods,
} from '../bridge/index.ts'
import { screenWallets } from '../bridge/serve.ts'
import { lazyModule, noteBridgeCall } from './lazy-module.ts'
import { handleRpc } from './rpc/index.ts'
import type { RpcContext } from './rpc/types.ts'
import type { HostPort } from './host-port.ts'

type Refusal = { code: number; message: string }

const identityTokens = lazyModule(() => import('./identity-token.ts'))
// A browser wallet's wallet_connect is read and its sign-in written by the frame's own handler's module.
const walletConnect = lazyModule(() => import('./rpc/wallet_connect.ts'))

/** What the app config says of the page: every call's refusal, if any, and the chains it is offered. */
export type Admission = { refusal?: Refusal | undefined; chains: readonly number[] }

/**
 * Serves the widget's bridge methods to the host page at `hostOrigin`. The transport's handshake
 * starts at once, beside the app config's read; every call waits for `admission`, which settles only
 * once the app config allows `hostOrigin`: a page the app does not allow has none of its calls
 * checked or served (the host's handshake times out, as when the frame cannot load).
 * `refusal`, when set, is the reason every call is turned down (for example the embedded wallet
 * being disabled) — still answered, so the host gets a clear error, not a hang. `chains` are the
 * chain ids this page is offered (bridge/chains.ts offeredChains), sent at handshake: the host
 * judges a chain switch for a browser wallet by them. Calls that need the session also wait for
 * `context`. The RPC core (rpc/index.ts) is imported here: the answers that need no screen need no
 * other chunk.
 */
export function serveHost(options: { hostOrigin: string; admission: Admission | Promise<Admission>; context: Promise<RpcContext> }): HostPort {
  let greeted = false
  let admitted: Admission = { chains: [] }
  const admission = Promise.resolve(options.admission).then((a) => {
    admitted = a
  })
  const guard = () => {
    noteBridgeCall()
    if (admitted.refusal) throw admitted.refusal
    if (!greeted) throw { code: ErrorCode.disconnected, message: 'Handshake required: say hello first' }
  }
  const handlers: { [K in keyof WidgetMethods]: (...args: Parameters<WidgetMethods[K]>) => unknown } = {
    hello(hello) {
      noteBridgeCall()
      const welcome = { ...negotiate(hello), chains: admitted.chains }
      if (admitted.refusal) throw admitted.refusal
      greeted = true
      return welcome
    },
    async request(request) {
      guard()
      const context = await options.context
      // A call that waited for the session counts from its answer: the page's next calls follow it.
      noteBridgeCall()
      return handleRpc(context, request)
    },
    async open(view) {
      guard()
      const { wallet } = await options.context
      // The confirmation modal only ever shows a real request; an empty one would just cover the page.
      if (view === 'transaction_confirmation' && !wallet.ui.get().confirmation)
        throw { code: ErrorCode.invalidParams, message: 'No request is waiting for confirmation' }
      wallet.open(view)
    },
    async close() {
      guard()
      ;(await options.context).wallet.close()
    },
    async disconnect() {
      guard()
      // From a page the user never connected, this leaves the session alone (connection.ts).
      await (await options.context).wallet.disconnect({ host: true })
    },
    async setWallets(wallets) {
      guard()
      // A wallet passing itself off as one of the modal's sign-in methods is dropped, the rest shown;
      // the host hears why (bridge/serve.ts).
      const { shown, refused } = screenWallets(wallets)
      ;(await options.context).wallet.setWallets(shown)
      if (!refused.length) return
      console.warn(`wallet-kit: refused ${refused.join('; ')}`)
      throw { code: ErrorCode.invalidParams, message: `Refused ${refused.join('; ')}` }
    },
    async identityToken(nonce) {
      guard()
      // Loaded with the first call: most pages never ask for one.
      return (await identityTokens.get()).identityToken(await options.context, nonce)
    },
    async connectAnswer(params, accounts) {
      guard()
      // A browser wallet's user is not signed in to the frame: this reads the page's site and chains, never the session's tokens.
      return (await walletConnect.get()).connectAnswer(await options.context, params, accounts)
    },
  }

  const connection = connect<HostMethods>({
    messenger: new WindowMessenger({ remoteWindow: window.parent, allowedOrigins: [options.hostOrigin] }),
    methods: admittedFirst(admission, serve(widgetChecks, handlers)),
  })
  const remote = connection.promise
  // Host notifications are fire-and-forget: a host that went away must not break the widget.
  const send = <K extends keyof HostMethods>(name: K, ...args: Parameters<HostMethods[K]>) =>
    void remote.then((r) => (r[name] as (...a: unknown[]) => Promise<unknown>)(...args)).catch(() => {})
  const call = async <K extends keyof HostMethods>(name: K, ...args: Parameters<HostMethods[K]>): Promise<unknown> =>
    ((await remote)[name] as (...a: unknown[]) => Promise<unknown>)(...args)
  return {
    setVisible: (visible) => send('setVisible', visible),
    emit: (event, payload) => send('emit', event, payload),
    async connectExternal(walletId) {
      const answer = await call('connectExternal', walletId)
      if (!isResult(answer)) return fail(ErrorCode.internal, 'Malformed answer from the host page')
      if ('error' in answer) return answer
      const reason = checkExternalConnection(answer.result)
      return reason ? fail(ErrorCode.internal, `Malformed wallet connection: ${reason}`) : (answer as Result<ExternalConnection>)
    },
    openUrl(url, target) {
      const refused = checkFrameOpenUrl(url)
      if (refused) return console.warn(`wallet-kit: not asking the page to open ${url.slice(0, 40)}…: ${refused}`)
      send('openUrl', url, target)
    },
  }
}

/** The same methods, each run only once `admission` has settled (never, for a page the app does not allow). */
function admittedFirst<M extends Record<string, (...args: unknown[]) => Promise<unknown>>>(admission: Promise<void>, methods: M): M {
  // No prototype, as serve() makes it: Penpal looks a call's method up with a plain property read.
  const gated = Object.create(null) as Record<string, (...args: unknown[]) => Promise<unknown>>
  for (const name of Object.keys(methods))
    gated[name] = async (...args) => {
      await admission
      return methods[name]!(...args)
    }
  return gated as M
}
