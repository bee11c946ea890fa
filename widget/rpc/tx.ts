import { formatEther, hexToBigInt, isAddressEqual } from 'viem'
import type { ChainConfig, TransactionRequest } from '../../sdk/index.ts'
import type { ConfirmationPayload } from '../ui-state.ts'
import { readFees, type Fees, type HostFees } from './fees.ts'
import { addressParam, hexParam, invalid, numberParam, requireChain } from './guards.ts'

type Request = TransactionRequest & { data: string }
type Parsed = { request: Request; payload: ConfirmationPayload; fees: HostFees; value: bigint }

const optionalHex = (tx: Record<string, unknown>, key: string) => (tx[key] === undefined || tx[key] === null ? undefined : hexParam(tx[key], key))

/**
 * An EIP-1193 transaction (hex quantities) as the wallet service takes it (PROTOCOL.md): the value
 * in whole units, gas figures as decimal strings. Checked before anything is shown or sent; the fees
 * are completed (withFees) once the service has estimated what the host left out.
 */
export function parseTransaction(value: unknown, account: { address: `0x${string}`; chain: ChainConfig }): Parsed {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('transaction must be an object')
  const tx = value as Record<string, unknown>
  const from = tx.from === undefined ? account.address : addressParam(tx.from, 'from')
  if (!isAddressEqual(from, account.address)) throw invalid(`from ${from} is not the connected account`)
  if (tx.to === undefined || tx.to === null) throw invalid('to is required (contract creation is not supported)')
  const to = addressParam(tx.to, 'to')
  const chainId = tx.chainId === undefined || tx.chainId === null ? undefined : numberParam(tx.chainId, 'chainId')
  requireChain(chainId, account.chain, 'transaction')
  const data = optionalHex(tx, 'data') ?? optionalHex(tx, 'input') ?? '0x'
  const wei = optionalHex(tx, 'value')
  const nonce = tx.nonce === undefined || tx.nonce === null ? undefined : numberParam(tx.nonce, 'nonce')
  const fees = readFees(tx)
  const value_ = wei === undefined ? undefined : formatEther(hexToBigInt(wei))
  const request: Request = {
    from,
    to,
    data,
    ...(value_ !== undefined && { value: value_ }),
    ...(nonce !== undefined && { nonce }),
  }
  const payload: ConfirmationPayload = {
    from,
    to,
    value: value_ ?? '0',
    data,
    chainId: account.chain.chainId,
    ...(nonce !== undefined && { nonce }),
  }
  return { request, payload, fees, value: wei === undefined ? 0n : hexToBigInt(wei) }
}

/** The service body with every fee figure set, as shown. */
export function withFees(request: Request, fees: Fees): Request {
  return {
    ...request,
    gasLimit: fees.gasLimit.toString(),
    ...('gasPrice' in fees
      ? { gasPrice: fees.gasPrice.toString() }
      : {
          maxFeePerGas: fees.maxFeePerGas.toString(),
          ...(fees.maxPriorityFeePerGas !== undefined && { maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString() }),
        }),
  }
}
