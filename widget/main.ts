import { ErrorCode, offeredChains } from '../bridge/index.ts'
import { serveHost } from './bridge.ts'
import { chainRefusal, openServices, start } from './core.ts'
import { isAllowedOrigin } from './origins.ts'
import { whenIdle } from './lazy-module.ts'
import { readParams } from './params.ts'
import type { RpcContext } from './rpc/types.ts'
import { createSecureHandle } from './secure/secure-handle.ts'
import type { HostPort } from './host-port.ts'

/**
 * The wallet frame's entry: the core, with no React. It reads the session and the app config,
 * answers the page (the handshake, eth_chainId, eth_accounts, permissions: what needs no screen) as
 * soon as the session is read, and runs the UI (ui.tsx: React and the modals, fetched beside it)
 * once it does. A request that needs a screen waits for the UI; the first answers never wait for React.
 */
async function boot() {
  const params = readParams(new URL(location.href), location.ancestorOrigins)
  document.documentElement.dataset.theme = params.theme
  // The secure window (a popup the frame opened) is its own page; its code loads only there.
  if (params.secureWindow) return (await import('./secure/window-main.tsx')).bootSecureWindow(params)
  const services = await openServices(params)
  if (!services) return
  const { owner, client, config } = services
  // No handshake at all with a page the app does not allow (frame-ancestors blocks framing too).
  if (!params.hostOrigin || !isAllowedOrigin(params.hostOrigin, config.allowedOrigins)) {
    console.error(`wallet-kit: ${params.hostOrigin ?? 'this page'} is not an allowed origin of app "${params.appId}"`)
    return
  }
  const hostOrigin = params.hostOrigin

  let ready: (ctx: RpcContext) => void = () => {}
  let failed: (reason: { code: number; message: string }) => void = () => {}
  const context = new Promise<RpcContext>((resolve, reject) => {
    ready = resolve
    failed = reject
  })
  // The handshake starts now; calls wait until the session has been read.
  const bridge = serveHost({
    hostOrigin,
    refusal: config.isEmbeddedWalletEnabled
      ? chainRefusal(params.appId, params.chains, config.chains)
      : { code: ErrorCode.disconnected, message: 'Embedded wallet is not enabled' },
    chains: offeredChains(config.chains, params.chains).map((c) => c.chainId),
    context,
  })
  const shown = uiShown(bridge)
  try {
    const ctx = await start({ params, hostOrigin, client, config, owner, host: shown.host, setChain: services.setChain, walletConnect: true })
    ready(ctx)
    const secure = createSecureHandle(async (state) =>
      (await import('./secure/frame-flows.ts')).createSecureFlows({ params, wallet: ctx.wallet, confirmations: ctx.confirmations, client, state }),
    )
    // The UI (fetched and compiled beside the core: the page's modulepreload links) runs when a
    // modal first opens, or once the browser is idle after the first answers: never before them.
    let mounting: Promise<void> | undefined
    const mount = () =>
      (mounting ??= (async () => {
        const { mountUi } = await import('./ui.tsx')
        await mountUi({ ...ctx, config, locale: params.locale, presentation: 'frame', mode: params.mode, persistent: owner.persistent, secure })
        shown.mounted()
      })().catch((error: unknown) => {
        // Offline before they arrived, say: the next modal opened tries again.
        mounting = undefined
        console.error("wallet-kit: the wallet's screens could not load:", error)
      }))
    const whenOpened = () => {
      if (ctx.wallet.ui.get().view !== null) void mount()
    }
    ctx.wallet.ui.subscribe(whenOpened)
    whenOpened()
    whenIdle(() => void mount(), 1000)
  } catch (error) {
    // Every call gets an answer, never a wait without end.
    console.error('wallet-kit: the wallet frame could not start:', error)
    failed({ code: ErrorCode.disconnected, message: `The wallet frame could not start: ${(error as Error)?.message ?? String(error)}` })
  }
}

/**
 * The host shows the frame only once the UI has rendered: a modal a request opened before that is
 * shown when it can be seen, never as an empty frame over the page. Calls keep their order.
 */
function uiShown(host: HostPort): { host: HostPort; mounted(): void } {
  let mounted = () => {}
  const rendered = new Promise<void>((resolve) => (mounted = resolve))
  return {
    host: { ...host, setVisible: (visible) => void rendered.then(() => host.setVisible(visible)) },
    mounted: () => mounted(),
  }
}

void boot()
