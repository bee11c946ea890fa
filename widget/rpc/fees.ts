import { InternalError } from '../../bridge/error-classes.ts'
import { formatGwei, formatUnits, hexToBigInt } from 'viem'
import type { TransactionParams } from '../../bridge/index.ts'
import type { EstimateGasResult } from '../../sdk/index.ts'
import type { FeeSummary } from './fee-summary.ts'
import { invalid } from './guards.ts'

/** The fee fields of an EIP-1193 transaction, as the host passed them. */
export type HostFees = { gas?: bigint; gasPrice?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint }

/** Every fee figure of a transaction, complete: what the confirmation shows is what is signed. */
export type Fees = { gasLimit: bigint } & ({ gasPrice: bigint } | { maxFeePerGas: bigint; maxPriorityFeePerGas?: bigint })

/** Fields that would be signed but that no confirmation shows: refused rather than passed on or dropped silently. */
const unshowable: Readonly<Record<string, string>> = {
  maxFeePerBlobGas: 'blob transactions are not supported',
  blobVersionedHashes: 'blob transactions are not supported',
  blobs: 'blob transactions are not supported',
  authorizationList: 'EIP-7702 authorizations are not supported',
}

/**
 * The host's fee fields, checked before anything is shown (-32602): a legacy gas price and EIP-1559
 * fees together would leave the signer to pick one, and a priority fee above the cap cannot be paid.
 */
export function readFees(tx: TransactionParams): HostFees {
  for (const [key, reason] of Object.entries(unshowable)) if (tx[key] != null) throw invalid(reason)
  const fees: HostFees = {}
  for (const key of ['gas', 'gasPrice', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const) {
    const quantity = tx[key]
    if (quantity != null) fees[key] = hexToBigInt(quantity)
  }
  if (fees.gas === 0n) throw invalid('gas must be above 0')
  if (fees.gasPrice !== undefined && (fees.maxFeePerGas !== undefined || fees.maxPriorityFeePerGas !== undefined))
    throw invalid('gasPrice (legacy) cannot be combined with maxFeePerGas or maxPriorityFeePerGas (EIP-1559)')
  if (fees.maxFeePerGas !== undefined && fees.maxPriorityFeePerGas !== undefined && fees.maxPriorityFeePerGas > fees.maxFeePerGas)
    throw invalid('maxPriorityFeePerGas cannot exceed maxFeePerGas')
  return fees
}

/** True when the service must be asked for a gas limit or a price before the fee can be shown. */
export const needsEstimate = (fees: HostFees): boolean => fees.gas === undefined || (fees.gasPrice === undefined && fees.maxFeePerGas === undefined)

const big = (v: string | undefined) => (v === undefined ? undefined : BigInt(v))
const noEstimate = (what: string) => new InternalError({ message: `Failed to estimate gas: the estimate has no ${what}` })

/**
 * The host's fees, completed from the wallet service's estimate where the host named none. The
 * estimate is then pinned in what is sent, so the network fee shown is the one signed.
 */
export function completeFees(host: HostFees, estimate?: EstimateGasResult): Fees {
  const gasLimit = host.gas ?? big(estimate?.gasLimit)
  if (gasLimit === undefined) throw noEstimate('gas limit')
  if (host.gasPrice !== undefined) return { gasLimit, gasPrice: host.gasPrice }
  if (host.maxFeePerGas !== undefined)
    return { gasLimit, maxFeePerGas: host.maxFeePerGas, ...(host.maxPriorityFeePerGas !== undefined && { maxPriorityFeePerGas: host.maxPriorityFeePerGas }) }
  const maxFee = big(estimate?.maxFeePerGas)
  const priority = big(estimate?.maxPriorityFeePerGas)
  if (maxFee !== undefined) {
    if (host.maxPriorityFeePerGas === undefined) return { gasLimit, maxFeePerGas: maxFee, ...(priority !== undefined && { maxPriorityFeePerGas: priority }) }
    // The host's own tip on top of the estimate's base-fee part (viem's rule: base fee share + tip).
    const base = priority !== undefined && maxFee > priority ? maxFee - priority : maxFee
    return { gasLimit, maxFeePerGas: base + host.maxPriorityFeePerGas, maxPriorityFeePerGas: host.maxPriorityFeePerGas }
  }
  if (host.maxPriorityFeePerGas !== undefined) throw invalid('maxPriorityFeePerGas needs a chain with EIP-1559 fees')
  const gasPrice = big(estimate?.gasPrice)
  if (gasPrice === undefined) throw noEstimate('gas price')
  return { gasLimit, gasPrice }
}

export function summarizeFees(fees: Fees, value: bigint): FeeSummary {
  const maxFee = fees.gasLimit * ('gasPrice' in fees ? fees.gasPrice : fees.maxFeePerGas)
  return {
    gasLimit: fees.gasLimit.toString(),
    ...('gasPrice' in fees
      ? { gasPrice: fees.gasPrice.toString() }
      : {
          maxFeePerGas: fees.maxFeePerGas.toString(),
          ...(fees.maxPriorityFeePerGas !== undefined && { maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString() }),
        }),
    maxFee: maxFee.toString(),
    total: (value + maxFee).toString(),
  }
}

/** The fee as the confirmation shows it: exact amounts (viem's formatting, nothing rounded away). */
export function describeFee(fee: FeeSummary, currency: { symbol: string; decimals: number }) {
  const native = (wei: string) => `${formatUnits(BigInt(wei), currency.decimals)} ${currency.symbol}`
  const perGas = fee.gasPrice ?? fee.maxFeePerGas ?? '0'
  return {
    gasLimit: fee.gasLimit,
    perGas: `${formatGwei(BigInt(perGas))} gwei`,
    priority: fee.maxPriorityFeePerGas === undefined ? undefined : `${formatGwei(BigInt(fee.maxPriorityFeePerGas))} gwei`,
    maxFee: native(fee.maxFee),
    total: native(fee.total),
  }
}
