import type { ChainConfig, Client } from '../../sdk/index.ts'
import { lazyModule } from '../lazy-module.ts'
import type { Account } from './account.ts'

/** The message-signing code (viem's hashing): preloaded with the other lazy parts, and asked for again with each account. */
const signing = lazyModule(() => import('./embedded-sign.ts')).get

/** The embedded wallet: its key stays with the wallet service, which signs for the held session. */
export function embeddedAccount(client: Pick<Client, 'wallet'>, address: `0x${string}`, chain: ChainConfig): Account {
  const network = chain.network
  void signing().catch(() => {})
  return {
    source: 'embedded',
    address,
    chain,
    signMessage: async (bytes) => (await signing()).signMessage(client, network, bytes),
    async signTypedData(json) {
      return (await client.wallet.signTypedData({ network, data: json })).signature as `0x${string}`
    },
    estimateGas: (tx) => client.wallet.estimateGas({ network, type: 'custom', transaction: tx }),
    async sendTransaction(transaction) {
      return (await client.wallet.sendTransaction({ network, transaction })).txReceipt.hash as `0x${string}`
    },
    async signTransaction(transaction) {
      return (await client.wallet.signTransaction({ network, transaction })).signedTransaction as `0x${string}`
    },
    // Calls run one after another as ordinary transactions; the smart account makes them atomic.
    atomic: 'unsupported',
  }
}
