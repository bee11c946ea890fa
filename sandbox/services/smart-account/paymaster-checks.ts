import { isAddressEqual, type Address, type PublicClient } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import { BundlerError, bundlerErrorCodes, paymasterWindow } from './bundler-errors.ts'
import { maxCostOf } from './bundler-policy.ts'
import type { UserOp } from './bundler-types.ts'

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

/** How long a sponsorship must still be valid for an operation to be taken: time to bundle it and have it mined. */
export const minValidForSeconds = 30

/**
 * Refuses (-32503) an operation whose sponsorship by the sandbox's paymaster expires within
 * `minValidForSeconds` of the chain's time: it would be dropped from its bundle. One already expired
 * (or not yet due) fails the simulation before this (AA32).
 */
export async function checkPaymasterWindow(client: PublicClient, op: UserOp, ownPaymaster: Address): Promise<void> {
  const window = paymasterWindow(op, ownPaymaster)
  if (!window.validUntil) return
  const { timestamp } = await client.getBlock()
  if (window.validUntil < Number(timestamp) + minValidForSeconds)
    throw new BundlerError(
      bundlerErrorCodes.outOfTimeRange,
      `The paymaster's sponsorship expires within ${minValidForSeconds} s (validUntil ${window.validUntil}): ask for a new one`,
      { paymaster: op.paymaster, ...window },
    )
}
