import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import { resolveContext, type ClientConfig, type Context } from '../../sdk/config.ts'
import type { AppConfig } from '../../sdk/index.ts'
import { Widget, type WidgetContext } from '../context.ts'
import { alice, testWallet } from '../wallet.fixture.ts'

export type ProfileWidgetOptions = {
  /** App config over the defaults (no smart accounts, powered-by shown, no ramp). */
  config?: Partial<AppConfig>
  /** The service clients the pages use. */
  client?: unknown
  /** What the chain answers for a balance (hex wei); 1 ETH by default. */
  balance?: string
  /** The frame's handle on its secure window (none by default). */
  secure?: unknown
  /** Runs on the signed-in wallet before the profile opens (e.g. a WalletConnect session). */
  prepare?: (wallet: ReturnType<typeof testWallet>['wallet']) => void
}

/**
 * `children` inside the widget signed in as alice (embedded wallet, Local Chain 1) with the profile
 * open, in English, with a fresh query cache.
 */
export async function renderProfileWidget(children: ReactNode, options: ProfileWidgetOptions = {}) {
  const t = testWallet({ session: alice })
  await t.wallet.restore()
  options.prepare?.(t.wallet)
  t.wallet.open('profile')
  const value = {
    wallet: t.wallet,
    client: options.client ?? {},
    config: { isAAEnabled: false, showPoweredBy: true, rampableClientSecret: null, ...options.config },
    rpc: () => ({ request: async () => options.balance ?? '0xde0b6b3a7640000' }),
    locale: 'en',
    presentation: 'frame',
    mode: 'frame',
    persistent: true,
    walletConnect: null,
    secure: options.secure ?? null,
  } as unknown as WidgetContext
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } })
  render(
    <Widget.Provider value={value}>
      <QueryClientProvider client={queries}>{children}</QueryClientProvider>
    </Widget.Provider>,
  )
  return t
}

/** One call a page made to the scripted wallet service, as the service would read it. */
export type ServiceCall = { method: string; path: string; body: Record<string, unknown>; authorization: string | null }

const walletService = 'http://wallet.test/api/v2'

/**
 * The wallet service's client context for the pages, on the signed-in widget's `tokens`: each call
 * is read as the service would (method, path under the API, JSON body, bearer) and answered by
 * `answer`, where a test records what it checks and scripts the answer.
 */
export function scriptedWalletService(tokens: ClientConfig['tokens'], answer: (call: ServiceCall) => Response | Promise<Response>): Context {
  return resolveContext({
    appId: 'demo',
    baseUrls: { wallet: walletService },
    tokens,
    fetch: async (url, init) =>
      answer({
        method: init?.method ?? 'GET',
        path: String(url).replace(walletService, ''),
        body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>,
        authorization: new Headers(init?.headers).get('authorization'),
      }),
  })
}
