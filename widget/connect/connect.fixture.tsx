import { render } from '@testing-library/react'
import type { ReactNode } from 'react'
import type { AppConfig } from '../../sdk/index.ts'
import { Widget, type WidgetContext } from '../context.ts'
import { testWallet } from '../wallet.fixture.ts'
import type { Wallet } from '../wallet.ts'

/** App config as the connect home reads it: every provider off unless `overrides` turns it on. */
export function connectConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    useWalletKitBrand: true,
    logoUrl: null,
    useEmailLogin: true,
    showPoweredBy: true,
    google: { enabled: false, clientId: null, scriptUrl: null },
    apple: { enabled: false, clientId: null, redirectUri: null, scriptUrl: null },
    telegram: { enabled: false, botId: null, botUsername: null, scriptUrl: null },
    whatsapp: { enabled: false },
    usernamePassword: { enabled: false },
    ...overrides,
  } as AppConfig
}

/** Renders `node` in the widget with a test wallet (connect modal open), `client` as the service client and `config`. */
export async function renderConnect(
  node: ReactNode,
  { client = {}, config = connectConfig(), setup }: { client?: object; config?: AppConfig; setup?: (wallet: Wallet) => void } = {},
) {
  const { wallet, owner } = testWallet()
  await wallet.restore()
  wallet.open('connect')
  setup?.(wallet)
  const value = { wallet, client, config, locale: 'en', presentation: 'frame', mode: 'frame', persistent: true, walletConnect: null, secure: null }
  const view = render(<Widget.Provider value={value as unknown as WidgetContext}>{node}</Widget.Provider>)
  return { wallet, owner, view }
}
