import type { Address } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import { HttpError } from '../../http/exchange.ts'
import type { Network } from '../chain/networks.ts'
import { chainError, sendTx, type TxReceiptBody } from './transactions.ts'
import { readNonce } from './tx-fields.ts'

type PoolTx = { gasPrice?: string; maxFeePerGas?: string; maxPriorityFeePerGas?: string }

/**
 * Cancels a pending transaction the usual way: a 0-value transfer to itself at the same nonce with
 * fees bumped above the pending one's, so the node replaces it and the original never mines.
 */
export async function cancelTransaction(network: Network, account: PrivateKeyAccount, rawNonce: unknown): Promise<TxReceiptBody> {
  const nonce = readNonce(rawNonce)
  const { client } = network
  const [mined, pending] = await Promise.all([
    client.getTransactionCount({ address: account.address, blockTag: 'latest' }),
    client.getTransactionCount({ address: account.address, blockTag: 'pending' }),
  ]).catch((error: unknown) => {
    throw chainError(error)
  })
  if (nonce < mined) throw new HttpError(400, `The transaction with nonce ${nonce} is already mined`)
  if (nonce >= pending) throw new HttpError(400, `No pending transaction with nonce ${nonce}`)

  const original = await pendingTx(network, account.address, nonce)
  const fees = await client.estimateFeesPerGas().catch((error: unknown) => {
    throw chainError(error)
  })
  // Nodes want at least +10% on both fees to accept a replacement; +25% leaves room.
  const bump = (value: string | undefined) => (value ? (BigInt(value) * 125n) / 100n + 1n : 0n)
  const priority = max(bump(original?.maxPriorityFeePerGas ?? original?.gasPrice), fees.maxPriorityFeePerGas)
  const maxFee = max(bump(original?.maxFeePerGas ?? original?.gasPrice), fees.maxFeePerGas, priority)
  return sendTx(network, account, { to: account.address, value: 0n, nonce, gas: 21_000n, maxFeePerGas: maxFee, maxPriorityFeePerGas: priority })
}

/** The pending transaction at `nonce` from the node's pool (txpool_content), if the node exposes it. */
async function pendingTx(network: Network, address: Address, nonce: number): Promise<PoolTx | undefined> {
  try {
    const pool = (await network.client.request({ method: 'txpool_content' as 'eth_chainId' })) as unknown as {
      pending?: Record<string, Record<string, PoolTx>>
    }
    const byNonce = Object.entries(pool.pending ?? {}).find(([from]) => from.toLowerCase() === address.toLowerCase())?.[1]
    return byNonce?.[String(nonce)]
  } catch {
    return undefined
  }
}

// biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
const max = (...values: bigint[]) => values.reduce((a, b) => (a > b ? a : b))
