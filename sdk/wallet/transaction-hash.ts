import { getAddress, keccak256, stringToHex, type Address, type Hex } from 'viem'

/**
 * What defines a transaction the wallet signs, as numbers and addresses (never as the strings a
 * body carried them in, so "0.5" and "0x6f05b59d3b20000" are the same value). Absent fee fields are
 * the ones the wallet service fills in itself.
 */
export type TransactionToHash = {
  chainId: number
  from: Address
  to: Address
  value?: bigint
  data?: Hex
  nonce?: number
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
}

const tag = 'wallet-kit/transaction/v1'
const optional = (value: bigint | number | undefined) => (value === undefined ? null : value.toString())

/**
 * The hash a step-up proof for `send-transaction` is bound to: keccak-256 over a fixed-order list of
 * the transaction's fields. The frame asks the code for this hash and the wallet service recomputes
 * it from the body it is sent, so a proof earned for one transfer cannot pay for another (another
 * value, recipient, chain, calldata or fee). The one definition both sides import.
 */
export function transactionRequestHash(tx: TransactionToHash): Hex {
  const fields = [
    tag,
    tx.chainId,
    getAddress(tx.from),
    getAddress(tx.to),
    (tx.value ?? 0n).toString(),
    (tx.data ?? '0x').toLowerCase(),
    optional(tx.nonce),
    optional(tx.gas),
    optional(tx.gasPrice),
    optional(tx.maxFeePerGas),
    optional(tx.maxPriorityFeePerGas),
  ]
  return keccak256(stringToHex(JSON.stringify(fields)))
}
