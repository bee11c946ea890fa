import { isAddressEqual, type PublicClient } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import { BundlerError, bundlerErrorCodes } from './bundler-errors.ts'
import { maxCostOf } from './bundler-policy.ts'
import type { UserOp } from './bundler.ts'

/**
 * Refuses (-32508) a sponsored operation when its paymaster's EntryPoint deposit cannot pay its
 * maximum cost together with those of the operations `pending` for the same paymaster (queued, or
 * in the bundle being sent). Concurrent sends can both pass; the bundle's simulation still drops
 * what the deposit cannot pay (AA31).
 */
export async function checkPaymasterDeposit(client: PublicClient, op: UserOp, pending: readonly { op: UserOp }[]): Promise<void> {
  const paymaster = op.paymaster
  if (!paymaster) return
  const same = pending.map((entry) => entry.op).filter((other) => other.paymaster && isAddressEqual(other.paymaster, paymaster))
  const needed = same.reduce((sum, other) => sum + maxCostOf(other), maxCostOf(op))
  const deposit = await client.readContract({ address: entryPointAddress, abi: entryPoint07Abi, functionName: 'balanceOf', args: [paymaster] })
  if (deposit < needed)
    throw new BundlerError(
      bundlerErrorCodes.paymasterDepositTooLow,
      `The paymaster's deposit (${deposit} wei) cannot pay for this operation and the ${same.length} pending for it (${needed} wei at most)`,
      { paymaster },
    )
}
