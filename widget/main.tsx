import { QueryClient } from '@tanstack/react-query'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { ErrorCode } from '../bridge/index.ts'
import { createClient, type AppConfig } from '../sdk/index.ts'
import { App } from './App.tsx'
import { serveHost } from './bridge.ts'
import { Widget } from './context.ts'
import { isAllowedOrigin } from './origins.ts'
import { readParams } from './params.ts'
import { createSessionStore } from './session.ts'
import './styles.css'
import { createWallet, type Wallet } from './wallet.ts'

// SPEC.md section 7: app config is cached with a 1-hour stale time, no retry, no refetch on focus.
const queries = new QueryClient({
  defaultOptions: { queries: { staleTime: 60 * 60 * 1000, retry: false, refetchOnWindowFocus: false } },
})

async function boot() {
  const params = readParams(new URL(location.href), location.ancestorOrigins)
  const api = location.origin
  const client = createClient({
    appId: params.appId,
    env: params.env,
    baseUrls: { wallet: `${api}/api/v2`, appConfig: `${api}/api/v1`, smartAccount: `${api}/api/v1`, ramp: `${api}/v1` },
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

  const sessions = createSessionStore(params.appId, params.env)
  let resolveWallet: (w: Wallet) => void = () => {}
  const restored = new Promise<Wallet>((r) => (resolveWallet = r))
  // The handshake starts now; calls wait until the stored session has been read.
  const host = serveHost({
    hostOrigin: params.hostOrigin,
    refusal: config.isEmbeddedWalletEnabled
      ? undefined
      : { code: ErrorCode.disconnected, message: 'Embedded wallet is not enabled' },
    wallet: restored,
  })
  const wallet = createWallet({
    appId: params.appId,
    env: params.env,
    chains: config.chains,
    sessions,
    host,
    onSession: (s) => (s ? client.tokens.set({ walletToken: s.token, refreshToken: s.refreshToken }) : client.tokens.clear()),
  })
  await wallet.restore()
  resolveWallet(wallet)

  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Widget.Provider value={{ wallet, client, config }}>
        <App />
      </Widget.Provider>
    </StrictMode>,
  )
}

void boot()
