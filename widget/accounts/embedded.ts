import type { ChainConfig, Client } from '../../sdk/index.ts'
import type { TransactionRequest } from '../../sdk/wallet/types.ts'
import { lazyModule } from '../lazy-module.ts'
import type { Account } from './account.ts'
import { needsTransactionStepUp, transactionStepUp } from './step-up-prompt.ts'

/** The message-signing code (viem's hashing): preloaded with the other lazy parts, and asked for again with each account. */
const signing = lazyModule(() => import('./embedded-sign.ts')).get

/**
 * A transaction above the app's step-up threshold is refused by the service until the user answers a
 * code for it (step-up-prompt.ts): then it is sent again, once, with the proof for its own hash.
 */
async function withStepUp<T>(chain: ChainConfig, transaction: TransactionRequest, call: (stepUpProof?: string) => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (!needsTransactionStepUp(error)) throw error
    return call(await transactionStepUp.ask((await signing()).transactionHashOf(chain.chainId, transaction)))
  }
}

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
      const send = (stepUpProof?: string) => client.wallet.sendTransaction({ network, transaction, ...(stepUpProof && { stepUpProof }) })
      return (await withStepUp(chain, transaction, send)).txReceipt.hash as `0x${string}`
    },
    async signTransaction(transaction) {
      const sign = (stepUpProof?: string) => client.wallet.signTransaction({ network, transaction, ...(stepUpProof && { stepUpProof }) })
      return (await withStepUp(chain, transaction, sign)).signedTransaction as `0x${string}`
    },
    // Calls run one after another as ordinary transactions; the smart account makes them atomic.
    atomic: 'unsupported',
  }
}
