import { createContext } from 'react'
import type { AccountState } from '../account.ts'
import type { WalletKit } from '../kit.ts'

export type WalletKitContext = {
  /** null until mounted on the client (and always during server-side rendering). */
  readonly kit: WalletKit | null
  readonly account: AccountState
  connect(): Promise<void>
}

export const Context = createContext<WalletKitContext | null>(null)
