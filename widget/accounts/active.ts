import * as Provider from 'ox/Provider'
import type { Client } from '../../sdk/index.ts'
import type { Wallet } from '../wallet.ts'
import type { Account } from './account.ts'
import { embeddedAccount } from './embedded.ts'

/**
 * The account signing requests act for, or null when nobody is signed in: the embedded wallet of
 * the held session, or the wallet paired over WalletConnect. Its chain is always the active one
 * (4901 if the app, or the paired wallet, does not offer it).
 */
export function activeAccount(
  wallet: Wallet,
  client: Pick<Client, 'wallet'>,
  walletConnect?: { account(): Account },
): (() => Account | null) & { address(): `0x${string}` | undefined } {
  const account = () => {
    const { session } = wallet.ui.get()
    if (!session) return null
    if (session.walletConnect) {
      if (!walletConnect) throw new Provider.DisconnectedError({ message: 'The wallet is not connected' })
      return walletConnect.account()
    }
    const chain = wallet.chain()
    if (!chain) throw new Provider.ChainDisconnectedError({ message: 'Chain not found' })
    return embeddedAccount(client, session.address, chain)
  }
  /** Who signs, without the chain check. */
  return Object.assign(account, { address: () => wallet.ui.get().session?.address })
}
