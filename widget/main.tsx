import { ErrorCode } from '../bridge/index.ts'
import { serveHost } from './bridge.ts'
import { loadMessages } from './i18n.ts'
import { preloadAll } from './lazy-module.ts'
import { isAllowedOrigin } from './origins.ts'
import { readParams } from './params.ts'
import type { RpcContext } from './rpc/types.ts'
import { createSecureHandle } from './secure/secure-handle.ts'
import { chainRefusal, openServices, render, start } from './start.tsx'
import './styles.css'
import './components.css'

async function boot() {
  const params = readParams(new URL(location.href), location.ancestorOrigins)
  // Another locale's strings load while the frame starts (English is in the first chunk).
  const strings = loadMessages(params.locale)
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
  const host = serveHost({
    hostOrigin,
    refusal: config.isEmbeddedWalletEnabled
      ? chainRefusal(params.appId, params.chains, config.chains)
      : { code: ErrorCode.disconnected, message: 'Embedded wallet is not enabled' },
    context,
  })
  try {
    const ctx = await start({ params, hostOrigin, client, config, owner, host, setChain: services.setChain, walletConnect: true })
    ready(ctx)
    const secure = createSecureHandle(async (state) =>
      (await import('./secure/frame-flows.ts')).createSecureFlows({ params, wallet: ctx.wallet, confirmations: ctx.confirmations, client, state }),
    )
    await strings
    render({ ...ctx, config, locale: params.locale, presentation: 'frame', mode: params.mode, persistent: owner.persistent, secure })
    preloadAll()
  } catch (error) {
    // Every call gets an answer, never a wait without end.
    console.error('wallet-kit: the wallet frame could not start:', error)
    failed({ code: ErrorCode.disconnected, message: `The wallet frame could not start: ${(error as Error)?.message ?? String(error)}` })
  }
}

void boot()
