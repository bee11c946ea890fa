import { useContext } from 'react'
import type { View } from '../../bridge/index.ts'
import type { AccountState } from '../account.ts'
import type { WalletKit } from '../kit.ts'
import type { EIP1193Provider } from '../provider.ts'
import { Context } from './context.ts'

export type UseWalletKit = {
  /** The EIP-1193 provider; null until the kit is created on the client. */
  provider: EIP1193Provider | null
  address: string | undefined
  chainId: number | undefined
  balance: string | undefined
  status: AccountState['status']
  /** eth_requestAccounts: opens the connect modal when nobody is connected. */
  connect(): Promise<void>
  open(modal?: View): Promise<void>
  close(): Promise<void>
  disconnect(): Promise<void>
  /** A short-lived JWT naming the signed-in user, for your server (kit.getIdentityToken). */
  getIdentityToken: WalletKit['getIdentityToken']
}

export function useWalletKit(): UseWalletKit {
  const context = useContext(Context)
  if (!context) throw new Error('useWalletKit must be used inside <WalletKitProvider>')
  const { kit, account, connect } = context
  const ready = (): WalletKit => {
    if (!kit) throw new Error('The wallet kit is not ready yet')
    return kit
  }
  return {
    provider: kit?.provider ?? null,
    address: account.address,
    chainId: account.chainId,
    balance: account.balance,
    status: account.status,
    connect,
    open: async (modal) => ready().open(modal),
    close: async () => ready().close(),
    disconnect: async () => ready().disconnect(),
    getIdentityToken: async (options) => ready().getIdentityToken(options),
  }
}
