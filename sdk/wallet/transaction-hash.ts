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

/** One call of a smart account's operation, as the account runs it. */
export type OperationCallToHash = { to: Address; value?: bigint; data?: Hex }

const operationTag = 'wallet-kit/operation/v1'

/**
 * The hash a step-up proof for `send-transaction` is bound to when the value leaves through a smart
 * account: keccak-256 over the chain, the account and its calls in order (each call's recipient,
 * value in wei and calldata). The frame asks the code for this hash from the calls it asks for; the
 * wallet service recomputes it from the calls the stored operation will run (decoded from its
 * calldata), so a proof earned for one batch cannot authorise another. Gas and nonce are not in it:
 * the proof pays for what is sent, and an operation rebuilt with other fees is the same request.
 */
export function operationRequestHash(operation: { chainId: number; account: Address; calls: readonly OperationCallToHash[] }): Hex {
  const calls = operation.calls.map((call) => [getAddress(call.to), (call.value ?? 0n).toString(), (call.data ?? '0x').toLowerCase()])
  return keccak256(stringToHex(JSON.stringify([operationTag, operation.chainId, getAddress(operation.account), calls])))
}
