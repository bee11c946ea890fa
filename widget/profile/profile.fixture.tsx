import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
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
