import { parseEther } from 'viem'
import type { TransactionRequest } from '../../sdk/wallet/types.ts'
import { transactionRequestHash } from '../../sdk/wallet/transaction-hash.ts'

/**
 * The step-up hash (sdk/wallet/transaction-hash.ts) of a transaction as the frame sends it to the
 * wallet service: the value in whole units of 18 decimals or 0x-hex wei, fees as decimal integers,
 * read as the service reads them, so both sides hash the same numbers.
 */
export function transactionHashOf(chainId: number, tx: TransactionRequest): `0x${string}` {
  const quantity = (value: string | undefined) => (value === undefined ? undefined : BigInt(value))
  return transactionRequestHash({
    chainId,
    from: tx.from as `0x${string}`,
    to: tx.to as `0x${string}`,
    ...(tx.value !== undefined && { value: tx.value.startsWith('0x') ? BigInt(tx.value) : parseEther(tx.value) }),
    ...(tx.data !== undefined && { data: tx.data as `0x${string}` }),
    ...(tx.nonce !== undefined && { nonce: tx.nonce }),
    ...(tx.gasLimit !== undefined && { gas: quantity(tx.gasLimit) }),
    ...(tx.gasPrice !== undefined && { gasPrice: quantity(tx.gasPrice) }),
    ...(tx.maxFeePerGas !== undefined && { maxFeePerGas: quantity(tx.maxFeePerGas) }),
    ...(tx.maxPriorityFeePerGas !== undefined && { maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas) }),
  })
}
