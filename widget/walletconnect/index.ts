import { DisconnectedError } from '../../bridge/error-classes.ts'
import type { AppConfig, ChainClient } from '../../sdk/index.ts'
import type { Account } from '../accounts/account.ts'
import type { Wallet } from '../wallet.ts'
import type { Connector, Pairing } from './connector.ts'
import { topicKey, walletConnectStorage } from './storage.ts'

/**
 * The frame's WalletConnect face. Its code (sign-client, ~140 KB gz) loads only for the QR page or
 * a session stored before a reload, never with the frame, and is not preloaded.
 */
export function createWalletConnect(deps: {
  wallet: Wallet
  config: AppConfig['walletConnect']
  appName: string
  persistent: boolean
  rpc: (chainId: number) => ChainClient
}) {
  const storage = walletConnectStorage(deps.persistent)
  let connector: Connector | null = null
  let loading: Promise<Connector> | undefined
  const load = () =>
    (loading ??= import('./connector.ts').then(
      ({ createConnector }) => (connector = createConnector({ ...deps, storage })),
      (error: unknown) => {
        loading = undefined
        throw error
      },
    ))
  return {
    /** A new pairing for the QR page: its URI, and the wallet's answer (rejects on a refusal). */
    pair: async (): Promise<Pairing> => (await load()).pair(),
    /** After a reload: the stored session, if there is one and the wallet has not ended it. */
    async restore(stored?: Promise<unknown>) {
      // The topic the frame's start already read, where it may store; else read now.
      const read = stored && deps.persistent ? stored : storage.getItem<string>(topicKey)
      const topic = await read.catch(() => undefined)
      if (typeof topic === 'string' && !deps.wallet.ui.get().session) await (await load()).restore(topic)
    },
    /** The account signing requests act for while a WalletConnect wallet is connected. */
    account(): Account {
      if (!connector) throw new DisconnectedError({ message: 'The wallet is not connected' })
      return connector.account()
    },
  }
}

export type WalletConnect = ReturnType<typeof createWalletConnect>
