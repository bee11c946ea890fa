import { createContext, useContext, useSyncExternalStore } from 'react'
import type { AppConfig } from '../sdk/index.ts'
import type { Decisions } from './confirmation.ts'
import { messages, type Messages } from './i18n.ts'
import type { RpcContext } from './rpc/types.ts'
import type { SecureHandle } from './secure/secure-handle.ts'
import type { WidgetClient } from './service-client.ts'
import type { ReadStore } from './store.ts'
import type { Wallet } from './wallet.ts'
import type { WalletConnect } from './walletconnect/index.ts'

/**
 * How the UI reaches the frame: the context it is handed (the core's parts), its read of their
 * stores (`useStore`), and its words in the frame's locale (`useT`).
 */
export type WidgetContext = {
  wallet: Wallet
  client: WidgetClient
  config: AppConfig
  /** The Confirm and Reject buttons' way to the request shown. */
  confirmations: Decisions
  rpc: RpcContext['rpc']
  locale: 'en' | 'id'
  /** The wallet frame in the host page, or the secure window (a first-party popup the frame opened). */
  presentation: 'frame' | 'window'
  /** The host's choice (`mode: 'popup'`: sign-ins and confirmations always in the secure window). */
  mode: 'frame' | 'popup'
  /** Whether the session outlives the page (false: third-party storage blocked, kept in memory). */
  persistent: boolean
  /** WalletConnect pairing and its session (the frame only; null in the secure window). */
  walletConnect: WalletConnect | null
  /** The frame's way to its secure window; null in the window itself. */
  secure: SecureHandle | null
}

export const Widget = createContext<WidgetContext | null>(null)

export function useWidget(): WidgetContext {
  const ctx = useContext(Widget)
  if (!ctx) throw new Error('useWidget outside the widget root')
  return ctx
}

/** A component's view of a store (the frame's UI state, the secure window's): it renders again when the selected value changes. */
export function useStore<S extends object, T>(store: ReadStore<S>, select: (s: S) => T): T {
  return useSyncExternalStore(store.subscribe, () => select(store.get()))
}

/** The UI's words, in the frame's locale (i18n.ts holds them). */
export function useT(): Messages {
  return messages[useWidget().locale]
}
