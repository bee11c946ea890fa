import { formatEther, hexToBigInt, isAddressEqual } from 'viem'
import type { TransactionRequest } from '../../sdk/index.ts'
import type { ConfirmationPayload } from '../ui-state.ts'
import { addressParam, hexParam, invalid, numberParam } from './guards.ts'

type Parsed = { request: TransactionRequest & { data: string }; payload: ConfirmationPayload }

const optionalHex = (tx: Record<string, unknown>, key: string) =>
  tx[key] === undefined || tx[key] === null ? undefined : hexParam(tx[key], key)

/**
 * An EIP-1193 transaction (hex quantities) as the wallet service takes it (PROTOCOL.md): the value
 * in whole units, gas figures as decimal strings. Checked before anything is shown or sent.
 */
export function parseTransaction(value: unknown, account: { address: `0x${string}`; chainId: number }): Parsed {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('transaction must be an object')
  const tx = value as Record<string, unknown>
  const from = tx.from === undefined ? account.address : addressParam(tx.from, 'from')
  if (!isAddressEqual(from, account.address)) throw invalid(`from ${from} is not the connected account`)
  if (tx.to === undefined || tx.to === null) throw invalid('to is required (contract creation is not supported)')
  const to = addressParam(tx.to, 'to')
  const chainId = tx.chainId === undefined || tx.chainId === null ? undefined : numberParam(tx.chainId, 'chainId')
  if (chainId !== undefined && chainId !== account.chainId)
    throw invalid(`transaction is for chain ${chainId}, the wallet is on ${account.chainId}`)
  const data = optionalHex(tx, 'data') ?? optionalHex(tx, 'input') ?? '0x'
  const wei = optionalHex(tx, 'value')
  const nonce = tx.nonce === undefined || tx.nonce === null ? undefined : numberParam(tx.nonce, 'nonce')
  const dec = (key: string) => {
    const v = optionalHex(tx, key)
    return v === undefined ? undefined : hexToBigInt(v).toString()
  }
  const value_ = wei === undefined ? undefined : formatEther(hexToBigInt(wei))
  const request: Parsed['request'] = {
    from,
    to,
    data,
    ...(value_ !== undefined && { value: value_ }),
    ...(nonce !== undefined && { nonce }),
    ...(dec('gas') !== undefined && { gasLimit: dec('gas') }),
    ...(dec('gasPrice') !== undefined && { gasPrice: dec('gasPrice') }),
    ...(dec('maxFeePerGas') !== undefined && { maxFeePerGas: dec('maxFeePerGas') }),
    ...(dec('maxPriorityFeePerGas') !== undefined && { maxPriorityFeePerGas: dec('maxPriorityFeePerGas') }),
  }
  const payload: ConfirmationPayload = {
    from,
    to,
    value: value_ ?? '0',
    data,
    chainId: account.chainId,
    ...(request.nonce !== undefined && { nonce: request.nonce }),
    ...(request.gasPrice !== undefined && { gasPrice: request.gasPrice }),
  }
  return { request, payload }
}
