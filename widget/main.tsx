import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { ErrorCode } from '../bridge/index.ts'
import type { AppConfig, ChainClient } from '../sdk/index.ts'
import { activeAccount } from './accounts/active.ts'
import { App } from './App.tsx'
import { serveHost } from './bridge.ts'
import { createWidgetClient, type WidgetClient } from './service-client.ts'
import { createConfirmations } from './confirmation.ts'
import { logoutTimeoutMs } from './constants.ts'
import { Widget } from './context.ts'
import { lazyModule, preloadAll } from './lazy-route.ts'
import { isAllowedOrigin } from './origins.ts'
import { readParams, type FrameParams } from './params.ts'
import type { RpcContext } from './rpc/types.ts'
import { openSessionStore } from './session.ts'
import { createSessionOwner, type SessionOwner } from './session-owner.ts'
import './styles.css'
import { createWallet } from './wallet.ts'

const chainModule = lazyModule(() => import('../sdk/chain.ts'))

async function boot() {
  const params = readParams(new URL(location.href), location.ancestorOrigins)
  document.documentElement.dataset.theme = params.theme
  // IndexedDB, else this page's memory (storage blocked): never a hang.
  const { store, persistent } = await openSessionStore(params.appId, params.env)
  let chainId = () => 0
  const held = createSessionOwner({ appId: params.appId, env: params.env, store, persistent, chainId: () => chainId() })
  const api = location.origin
  // The session owner is the client's token holder: tokens are written in one place.
  const client = createWidgetClient({
    appId: params.appId,
    env: params.env,
    baseUrls: { wallet: `${api}/api/v2`, appConfig: `${api}/api/v1`, smartAccount: `${api}/api/v1`, ramp: `${api}/v1` },
    tokens: held.tokens,
    coordinateRefresh: held.coordinateRefresh,
  })

  let config: AppConfig
  try {
    // Read once per frame and kept for its life (SPEC.md section 7: no retry, nothing refetches it).
    config = await client.appConfig.get()
  } catch (err) {
    console.error(`wallet-kit: no app config for "${params.appId}":`, err)
    return
  }
  // No handshake at all with a page the app does not allow (frame-ancestors blocks framing too).
  if (!params.hostOrigin || !isAllowedOrigin(params.hostOrigin, config.allowedOrigins)) {
    console.error(`wallet-kit: ${params.hostOrigin ?? 'this page'} is not an allowed origin of app "${params.appId}"`)
    return
  }
  const hostOrigin = params.hostOrigin

  let ready: (ctx: RpcContext) => void = () => {}
  let failed: (reason: { code: number; message: string }) => void = () => {}
  const context = new Promise<RpcContext>((resolve, reject) => ((ready = resolve), (failed = reject)))
  // The handshake starts now; calls wait until the session has been read.
  const host = serveHost({
    hostOrigin,
    refusal: config.isEmbeddedWalletEnabled ? undefined : { code: ErrorCode.disconnected, message: 'Embedded wallet is not enabled' },
    context,
  })
  try {
    const ctx = await start({ params, hostOrigin, client, config, owner: held, host, setChain: (fn) => (chainId = fn) })
    ready(ctx)
    render({ ...ctx, config, locale: params.locale })
    preloadAll()
  } catch (error) {
    // Every call gets an answer, never a wait without end.
    console.error('wallet-kit: the wallet frame could not start:', error)
    failed({ code: ErrorCode.disconnected, message: `The wallet frame could not start: ${(error as Error)?.message ?? String(error)}` })
  }
}

/** The widget's parts, wired: the wallet state machine on the session owner, confirmations, chain RPC. */
async function start(deps: {
  params: FrameParams
  hostOrigin: string
  client: WidgetClient
  config: AppConfig
  owner: SessionOwner
  host: ReturnType<typeof serveHost>
  setChain: (chainId: () => number) => void
}): Promise<RpcContext> {
  const { params, client, config, owner } = deps
  const chains = params.chains.length > 0 ? config.chains.filter((c) => params.chains.includes(c.chainId)) : config.chains
  const wallet = createWallet({
    appId: params.appId,
    env: params.env,
    hostOrigin: deps.hostOrigin,
    chains,
    owner,
    host: deps.host,
    // Disconnect revokes the tokens on the service; a service that does not answer cannot keep the
    // user connected (the HTTP client has no timeout of its own).
    logout: () => client.wallet.logout({}, { signal: AbortSignal.timeout(logoutTimeoutMs) }),
  })
  deps.setChain(wallet.chainId)
  // The buy screen's ramp key is publishable (DESIGN.md): it reads references and quotes only.
  if (config.rampableClientSecret) client.tokens.set({ rampClientSecret: config.rampableClientSecret })
  await wallet.restore()

  const account = activeAccount(wallet, client)
  const confirmations = createConfirmations(wallet, {
    // Who signs now; an account whose chain went away is caught by the chain check next to it.
    signer: account.address,
    // SPEC.md section 8: after a signing failure the token is refreshed.
    afterFailure: async () => {
      const refreshToken = client.tokens.get().refreshToken
      if (refreshToken) await client.account.refresh({ refreshToken })
    },
  })
  // One client per chain, with viem's transports loaded on the first read (not with the frame).
  const rpcClients = new Map<number, ChainClient>()
  const rpc = (chainId: number): ChainClient => ({
    async request(args, options) {
      // A module that failed to load is asked for again next time (lazy-route.ts).
      const { createChainClient } = await chainModule.get()
      let c = rpcClients.get(chainId)
      if (!c) rpcClients.set(chainId, (c = createChainClient({ rpcUrls: wallet.chain(chainId)?.rpcUrls ?? [] })))
      return c.request(args, options)
    },
  })
  return { wallet, client, confirmations, account, rpc }
}

function render(value: RpcContext & { config: AppConfig; locale: FrameParams['locale'] }) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Widget.Provider value={value}>
        <App />
      </Widget.Provider>
    </StrictMode>,
  )
}

void boot()
