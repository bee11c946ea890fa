import { createContext, useContext } from 'react'
import type { AppConfig } from '../sdk/index.ts'
import type { Confirmations } from './confirmation.ts'
import type { RpcContext } from './rpc/types.ts'
import type { WidgetClient } from './service-client.ts'
import type { Wallet } from './wallet.ts'

export type WidgetContext = {
  wallet: Wallet
  client: WidgetClient
  config: AppConfig
  confirmations: Confirmations
  rpc: RpcContext['rpc']
  locale: 'en' | 'id'
}

export const Widget = createContext<WidgetContext | null>(null)

export function useWidget(): WidgetContext {
  const ctx = useContext(Widget)
  if (!ctx) throw new Error('useWidget outside the widget root')
  return ctx
}
