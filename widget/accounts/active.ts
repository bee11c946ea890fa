import { ChainDisconnectedError, DisconnectedError } from '../../bridge/error-classes.ts'
import type { Client } from '../../sdk/index.ts'
import type { ReadStore } from '../store.ts'
import type { UiState } from '../ui-state.ts'
import type { Account } from './account.ts'
import type { ChainConfig } from '../../sdk/index.ts'
import { embeddedAccount } from './embedded.ts'
import { lazyModule } from '../lazy-module.ts'
import type { WidgetClient } from '../service-client.ts'
import type { SmartAccountUse } from '../session.ts'

/** The address the host sees for a session: its smart account's when one is in use, else its own. */
export const hostAddress = (session: { address: `0x${string}`; smartAccount?: SmartAccountUse }): `0x${string}` =>
  session.smartAccount?.address ?? session.address

/**
 * The account signing requests act for, or null when nobody is signed in: the embedded wallet of
 * the held session, or the wallet paired over WalletConnect. Its chain is always the active one
 * (4901 if the app, or the paired wallet, does not offer it).
 */
export function activeAccount(
  // The wallet's session and active chain: what this reads of it.
  wallet: { ui: ReadStore<UiState>; chain(): ChainConfig | undefined },
  client: Pick<Client, 'wallet'>,
  walletConnect?: { account(): Account },
): (() => Account | null) & { address(): `0x${string}` | undefined } {
  const account = () => {
    const { session } = wallet.ui.get()
    if (!session) return null
    if (session.walletConnect) {
      if (!walletConnect) throw new DisconnectedError({ message: 'The wallet is not connected' })
      return walletConnect.account()
    }
    const chain = wallet.chain()
    if (!chain) throw new ChainDisconnectedError({ message: 'Chain not found' })
    const embedded = embeddedAccount(client, session.address, chain)
    if (!session.smartAccount) return embedded
    const accountId = session.smartAccount.accounts[String(chain.chainId)]
    if (!accountId) throw new ChainDisconnectedError({ message: 'The smart account has no account on this chain' })
    return lazySmartAccount(client as WidgetClient, { address: session.smartAccount.address, accountId }, chain)
  }
  /** Who signs (the address the host sees), without the chain check. */
  return Object.assign(account, {
    address: () => {
      const session = wallet.ui.get().session
      return session ? hostAddress(session) : undefined
    },
  })
}

/** The smart account's code (accounts/smart.ts and the service client) loads with its first use: not in the frame's first route. */
const smartModule = lazyModule(() => import('./smart.ts')).get

function lazySmartAccount(client: WidgetClient, use: { address: `0x${string}`; accountId: string }, chain: ChainConfig): Account {
  const real = async () => (await smartModule()).smartAccount(client, use, chain)
  return {
    source: 'smart-account',
    address: use.address,
    chain,
    sponsored: true,
    atomic: 'supported',
    signMessage: async (bytes) => (await real()).signMessage(bytes),
    signTypedData: async (json) => (await real()).signTypedData(json),
    estimateGas: async (tx) => (await real()).estimateGas(tx),
    sendTransaction: async (tx) => (await real()).sendTransaction(tx),
    signTransaction: async (tx) => (await real()).signTransaction(tx),
    sendCalls: async (calls) => (await real()).sendCalls!(calls),
    callsStatus: async (id) => (await real()).callsStatus!(id),
  }
}
