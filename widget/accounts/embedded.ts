import { hashMessage, isHex } from 'viem'
import type { ChainConfig, Client } from '../../sdk/index.ts'
import { describeMessage } from '../confirm/message-display.ts'
import type { Account } from './account.ts'

/** The embedded wallet: its key stays with the wallet service, which signs for the held session. */
export function embeddedAccount(client: Pick<Client, 'wallet'>, address: `0x${string}`, chain: ChainConfig): Account {
  const network = chain.network
  return {
    source: 'embedded',
    address,
    chain,
    async signMessage(bytes) {
      // The service reads a 0x-hex message as bytes, so only plain readable text goes as text;
      // anything else as the EIP-191 hash of the exact bytes. Both sign the same bytes.
      const view = describeMessage(bytes)
      const asText = view.as === 'text' && view.warning === null && !isHex(view.shown)
      const { signature } = asText
        ? await client.wallet.signMessage({ network, message: view.shown })
        : await client.wallet.signHash({ network, hash: hashMessage({ raw: bytes }) })
      return signature as `0x${string}`
    },
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
