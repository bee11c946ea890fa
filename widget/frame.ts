import { ErrorCode, offeredChains } from '../bridge/index.ts'
import { type Admission, serveHost } from './bridge.ts'
import type { AppConfig } from '../sdk/index.ts'
import { pageConfig } from './config-read.ts'
import { chainRefusal, openServices, start } from './core.ts'
import type { EarlyStart } from './early.ts'
import { isAllowedOrigin } from './origins.ts'
import type { FrameParams } from './params.ts'
import type { RpcContext } from './rpc/types.ts'
import { createSecureHandle } from './secure/secure-handle.ts'
import type { WidgetContext } from './context.ts'
import type { HostPort } from './host-port.ts'

type UiModule = typeof import('./ui.tsx')

/**
 * The wallet frame's core, with no React, started by main.ts with the input and output it already
 * began. It answers the page (the handshake, eth_chainId, eth_accounts, permissions: what needs no
 * screen) as soon as the session is read. The UI (ui.tsx: React and the modals) is fetched beside it
 * and runs once the core answers. A request that needs a screen waits for the UI; the first answers
 * never wait for React.
 */
export async function boot(params: FrameParams, early: EarlyStart) {
  // The page preloads the UI's files (vite.config.ts): they are fetched and compiled while the core
  // waits for storage, and run once the core has answered (below), never on the first answer's path.
  let ready: (ctx: RpcContext) => void = () => {}
  let failed: (reason: { code: number; message: string }) => void = () => {}
  const context = new Promise<RpcContext>((resolve, reject) => {
    ready = resolve
    failed = reject
  })
  // A failure is answered to each call that waits (bridge.ts), and said in the console here: not again as unhandled.
  context.catch(() => {})
  let admit: (admission: Admission) => void = () => {}
  const { hostOrigin } = params
  const refused = () => console.error(`wallet-kit: ${hostOrigin ?? 'this page'} is not an allowed origin of app "${params.appId}"`)
  // A frame that cannot tell which page holds it serves none.
  if (!hostOrigin) return refused()
  // The transport's handshake with the page runs now, beside the storage probe and the app config;
  // no call is served before the app config allows the page, and those that need the session wait
  // until it has been read.
  const bridge = serveHost({ hostOrigin, admission: new Promise((resolve) => (admit = resolve)), context })
  /** The page's chains once `config` allows it (its handshake is then answered); undefined for a page it does not. */
  const admitPage = (config: AppConfig) => {
    // Nothing is served to a page the app does not allow (frame-ancestors blocks framing too).
    if (!isAllowedOrigin(hostOrigin, config.allowedOrigins)) return refused()
    const chains = offeredChains(config.chains, params.chains)
    admit({
      refusal: config.isEmbeddedWalletEnabled
        ? chainRefusal(params.appId, params.chains, config.chains, chains)
        : { code: ErrorCode.disconnected, message: 'Embedded wallet is not enabled' },
      chains: chains.map((c) => c.chainId),
    })
    return chains
  }
  // The app config the server wrote into this page admits the page at once: its handshake is
  // answered while storage is still being opened, and its first call waits only for the session.
  const inPage = pageConfig(params)
  let chains = inPage && admitPage(inPage)
  if (inPage && !chains) return
  try {
    const services = await openServices(params, early, inPage)
    // No app config (said in the console): a page admitted from the page's own copy gets an answer.
    if (!services) throw new Error('no app config')
    const { owner, client, config } = services
    chains ??= admitPage(config)
    if (!chains) return
    const shown = uiShown(bridge)
    const ctx = await start({
      params,
      hostOrigin,
      client,
      config,
      chains,
      owner,
      host: shown.host,
      setChain: services.setChain,
      walletConnect: { topic: services.walletConnectTopic },
    })
    ready(ctx)
    const secure = createSecureHandle((state) =>
      import('./secure/frame-flows.ts').then((flows) =>
        flows.createSecureFlows({ params, wallet: ctx.wallet, confirmations: ctx.confirmations, client, state }),
      ),
    )
    // The UI's code runs now, after the answers that waited for the context; its first render waits
    // for a pause in the page's calls, or for a modal (ui.tsx mountUi).
    mountWhenReady(
      () => import('./ui.tsx'),
      { ...ctx, config, locale: params.locale, presentation: 'frame', mode: params.mode, persistent: owner.persistent, secure },
      shown,
    )
  } catch (error) {
    // Every call gets an answer, never a wait without end.
    console.error('wallet-kit: the wallet frame could not start:', error)
    failed({ code: ErrorCode.disconnected, message: `The wallet frame could not start: ${(error as Error)?.message ?? String(error)}` })
  }
}

/**
 * Mounts the UI once its code has loaded. Code that failed to load (offline, say) is fetched again
 * when a modal opens: the frame is shown only once it has rendered.
 */
function mountWhenReady(load: () => Promise<UiModule>, value: WidgetContext, shown: { mounted(): void }) {
  const mount = (ui: Promise<UiModule>) =>
    void ui
      .then(({ mountUi }) => mountUi(value))
      .then(shown.mounted, (error: unknown) => {
        console.error("wallet-kit: the wallet's screens could not load:", error)
        // Watched only while the UI is missing: once it has mounted, no check on each change of state.
        const stop = value.wallet.ui.subscribe(() => {
          if (value.wallet.ui.get().view === null) return
          stop()
          mount(load())
        })
      })
  mount(load())
}

/**
 * The host shows the frame only once the UI has rendered: a modal a request opened before that is
 * shown when it can be seen, never as an empty frame over the page. Calls keep their order.
 */
function uiShown(host: HostPort): { host: HostPort; mounted(): void } {
  const waiting: boolean[] = []
  const shown: HostPort = { ...host, setVisible: (visible) => void waiting.push(visible) }
  return {
    host: shown,
    // Rendered: the calls that waited go out in their order, and the next ones straight to the host.
    mounted() {
      shown.setVisible = host.setVisible
      for (const visible of waiting.splice(0)) host.setVisible(visible)
    },
  }
}
