import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { ErrorCode } from '../bridge/index.ts'
import { createChainClient, createClient, type AppConfig, type ChainClient } from '../sdk/index.ts'
import { App } from './App.tsx'
import { serveHost } from './bridge.ts'
import { createConfirmations } from './confirmation.ts'
import { logoutTimeoutMs } from './constants.ts'
import { Widget } from './context.ts'
import { isAllowedOrigin } from './origins.ts'
import { readParams } from './params.ts'
import type { RpcContext } from './rpc/types.ts'
import { createSessionStore, type Session } from './session.ts'
import { coordinateRefresh, syncSessions } from './session-sync.ts'
import './styles.css'
import { createWallet } from './wallet.ts'

// SPEC.md section 7: app config is cached with a 1-hour stale time, no retry, no refetch on focus.
const queries = new QueryClient({
  defaultOptions: { queries: { staleTime: 60 * 60 * 1000, retry: false, refetchOnWindowFocus: false } },
})

async function boot() {
  const params = readParams(new URL(location.href), location.ancestorOrigins)
  document.documentElement.dataset.theme = params.theme
  const api = location.origin
  const client = createClient({
    appId: params.appId,
    env: params.env,
    baseUrls: { wallet: `${api}/api/v2`, appConfig: `${api}/api/v1`, smartAccount: `${api}/api/v1`, ramp: `${api}/v1` },
    // Tabs of one app share a stored session: one refresh at a time across them, and a tab whose
    // refresh token another tab already rotated takes the stored pair instead of spending it again.
    coordinateRefresh: (spent, refresh) =>
      coordinateRefresh(
        {
          sessions,
          address: () => wallet.ui.get().session?.address,
          lockName: `wallet-kit-refresh:${params.appId}:${params.env}`,
          // Written already (inside the lock): the token listener below then has nothing to write again.
          stored: (s) => wallet.ui.get().session?.address === s.address && wallet.ui.set({ session: s }),
        },
        spent,
        refresh,
      ),
  })

  let config: AppConfig
  try {
    config = await queries.fetchQuery({
      queryKey: ['app-config', params.appId, params.env],
      queryFn: ({ signal }) => client.appConfig.get({ signal }),
    })
  } catch (err) {
    console.error(`wallet-kit: no app config for "${params.appId}":`, err)
    return
  }
  // No handshake at all with a page the app does not allow (frame-ancestors blocks framing too).
  if (!params.hostOrigin || !isAllowedOrigin(params.hostOrigin, config.allowedOrigins)) {
    console.error(`wallet-kit: ${params.hostOrigin ?? 'this page'} is not an allowed origin of app "${params.appId}"`)
    return
  }
  const chains = params.chains.length > 0 ? config.chains.filter((c) => params.chains.includes(c.chainId)) : config.chains

  let ready: (ctx: RpcContext) => void = () => {}
  const context = new Promise<RpcContext>((r) => (ready = r))
  // The handshake starts now; calls wait until the stored session has been read.
  const host = serveHost({
    hostOrigin: params.hostOrigin,
    refusal: config.isEmbeddedWalletEnabled
      ? undefined
      : { code: ErrorCode.disconnected, message: 'Embedded wallet is not enabled' },
    context,
  })
  // Writes are announced to this app's other tabs; their frames adopt them (wallet.adopt).
  let adopt: (s: Session | null) => void = () => {}
  const { store: sessions } = syncSessions(createSessionStore(params.appId, params.env), `wallet-kit:${params.appId}:${params.env}`, (s) => adopt(s))
  const wallet = createWallet({
    appId: params.appId,
    env: params.env,
    hostOrigin: params.hostOrigin,
    chains,
    sessions,
    host,
    // Only the user's tokens come and go with the session; the app's publishable ramp key stays.
    onSession: (s) =>
      s ? client.tokens.set({ walletToken: s.token, refreshToken: s.refreshToken }) : client.tokens.clear(['walletToken', 'refreshToken', 'rampAccessToken', 'address']),
    // Disconnect revokes the tokens on the service; a service that does not answer cannot keep the
    // user connected (the HTTP client has no timeout of its own).
    logout: (s) => client.wallet.logout({ walletToken: s.token, refreshToken: s.refreshToken }, { signal: AbortSignal.timeout(logoutTimeoutMs) }),
  })
  // The buy screen's ramp key is publishable (DESIGN.md): it reads references and quotes only.
  if (config.rampableClientSecret) client.tokens.set({ rampClientSecret: config.rampableClientSecret })
  adopt = wallet.adopt
  await wallet.restore()
  // Tokens that changed outside a coordinated refresh are written back to the stored session; a
  // failed refresh (tokens cleared) ends the session.
  client.tokens.subscribe((tokens) => {
    const { session } = wallet.ui.get()
    if (!session) return
    if (!tokens.walletToken || !tokens.refreshToken) {
      void wallet.disconnect()
      return
    }
    // Tokens of another account (a login in progress) are not this session's.
    if (tokens.address && tokens.address.toLowerCase() !== session.address.toLowerCase()) return
    if (tokens.walletToken !== session.token)
      void sessions
        .patch(session.address, { token: tokens.walletToken, refreshToken: tokens.refreshToken })
        .then((s) => s && wallet.ui.get().session?.address === s.address && wallet.ui.set({ session: s }))
  })

  const confirmations = createConfirmations(wallet, {
    // SPEC.md section 8: after a signing failure the token is refreshed.
    afterFailure: async () => {
      const refreshToken = client.tokens.get().refreshToken
      if (refreshToken) await client.account.refresh({ refreshToken })
    },
  })
  const rpcClients = new Map<number, ChainClient>()
  const rpc = (chainId: number) => {
    let c = rpcClients.get(chainId)
    if (!c) rpcClients.set(chainId, (c = createChainClient({ rpcUrls: wallet.chain(chainId)?.rpcUrls ?? [] })))
    return c
  }
  ready({ wallet, client, confirmations, rpc })

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queries}>
        <Widget.Provider value={{ wallet, client, config, confirmations, rpc, locale: params.locale }}>
          <App />
        </Widget.Provider>
      </QueryClientProvider>
    </StrictMode>,
  )
}

void boot()
