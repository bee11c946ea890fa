import { formatEther, hexToBigInt } from 'viem'
import type { TransactionParams } from '../../bridge/index.ts'
import type { ChainConfig, TransactionRequest } from '../../sdk/index.ts'
import type { ConfirmationPayload } from '../ui-state.ts'
import { readFees, type Fees, type HostFees } from './fees.ts'
import { sameAddress } from '../../bridge/rpc-params.ts'
import { invalid, requireChain } from './guards.ts'

type Request = TransactionRequest & { data: string }
type Parsed = { request: Request; payload: ConfirmationPayload; fees: HostFees; value: bigint }

/**
 * An EIP-1193 transaction, as the method table checked it (hex quantities, chain id and nonce
 * below 2^52), as the wallet service takes it: the value in whole units, gas figures as decimal
 * strings. The account's rules apply here (its own address, a recipient, its chain) before
 * anything is shown or sent; the fees are completed (withFees) once the service has estimated what
 * the host left out.
 */
export function parseTransaction(tx: TransactionParams, account: { address: `0x${string}`; chain: ChainConfig }): Parsed {
  const from = tx.from ?? account.address
  if (!sameAddress(from, account.address)) throw invalid(`from ${from} is not the connected account`)
  if (tx.to == null) throw invalid('to is required (contract creation is not supported)')
  const to = tx.to
  const chainId = tx.chainId == null ? undefined : Number(tx.chainId)
  requireChain(chainId, account.chain, 'transaction')
  const data = tx.data ?? tx.input ?? '0x'
  const wei = tx.value ?? undefined
  const nonce = tx.nonce == null ? undefined : Number(tx.nonce)
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
