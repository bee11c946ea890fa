import { hexToBigInt, isAddressEqual, numberToHex, size, type Address, type PublicClient } from 'viem'
import { toPackedUserOperation } from 'viem/account-abstraction'
import {
  accountFactoryAddress,
  accountImplementationAddress,
  defaultPaymasterVerificationGasLimit,
  entryPointAddress,
  simpleAccountFactoryAddress,
  simpleAccountImplementationAddress,
} from '../../contracts/account-abstraction.ts'
import type { AccountKinds } from './account-kinds.ts'
import { BundlerError, bundlerErrorCodes, invalidUserOp, rejectedByEntryPoint, rejectedByPaymaster, shortReason } from './bundler-errors.ts'
import type { GasEstimate, UserOp } from './bundler-types.ts'

/** Most gas one operation may ask for (call, verification and paymaster verification): a bundle is not one attacker's. */
export const maxGasPerOp = 5_000_000n

/** The most an operation can cost whoever pays its gas (the account, or the paymaster). */
export const maxCostOf = (op: UserOp): bigint =>
  (op.preVerificationGas + op.verificationGasLimit + op.callGasLimit + (op.paymasterVerificationGasLimit ?? 0n) + (op.paymasterPostOpGasLimit ?? 0n)) *
  op.maxFeePerGas

/** What an operation's calldata costs the bundler beyond its own gas: `preVerificationGas` must cover it. */
export function minPreVerificationGas(op: UserOp): bigint {
  const packed = toPackedUserOperation(op)
  const bytes = size(packed.callData) + size(packed.initCode) + size(packed.paymasterAndData) + size(packed.signature) + 300
  return 40_000n + BigInt(bytes) * 16n
}

/**
 * Refuses sponsorship of any account but a WalletKitAccount: a SimpleAccount (or anything else) is
 * spent by a signature a site can get from its owner with personal_sign, so an app's gas tank must
 * never pay for one. The paymaster asks this before it signs (paymaster.ts), the bundler before it queues.
 */
export async function checkSponsorable(accounts: AccountKinds, op: UserOp): Promise<void> {
  const kind = await accounts.of(op).catch(() => undefined)
  if (kind !== 'walletKit') throw notSponsorable(op)
}

const notSponsorable = (op: UserOp) =>
  new BundlerError(
    rejectedByPaymaster,
    `This paymaster sponsors only WalletKitAccounts (factory ${accountFactoryAddress}); ${op.sender} pays for its own operations`,
  )

/**
 * What this bundler accepts before it spends anything on an operation (a light form of ERC-7562):
 * - fees that pay its `handleOps` transaction: a max fee of at least the base fee plus one block's
 *   rise (12.5 %), so the bundler is paid back what the operation's gas costs it;
 * - gas limits within `maxGasPerOp`, and a `preVerificationGas` that covers the calldata;
 * - only the accounts `accounts` knows (account-kinds.ts), so no operation carries validation code of its own that
 *   could pass the simulation and then fail the real transaction for a whole bundle;
 * - no paymaster, or the sandbox's own, and that for WalletKitAccounts only (`checkSponsorable`).
 */
export async function checkOperation(client: PublicClient, accounts: AccountKinds, op: UserOp, paymaster: Address): Promise<void> {
  const gas = op.callGasLimit + op.verificationGasLimit + (op.paymasterVerificationGasLimit ?? 0n) + (op.paymasterPostOpGasLimit ?? 0n)
  if (gas > maxGasPerOp) throw new BundlerError(invalidUserOp, `The operation asks for ${gas} gas; this bundler takes at most ${maxGasPerOp} per operation`)
  const minPvg = minPreVerificationGas(op)
  if (op.preVerificationGas < minPvg) throw new BundlerError(invalidUserOp, `preVerificationGas must be at least ${minPvg}`)
  if (op.maxPriorityFeePerGas > op.maxFeePerGas) throw new BundlerError(invalidUserOp, 'maxPriorityFeePerGas cannot exceed maxFeePerGas')
  const { baseFeePerGas } = await client.getBlock()
  const base = baseFeePerGas ?? 0n
  const minFee = base + base / 8n + 1n
  if (op.maxFeePerGas < minFee) throw new BundlerError(invalidUserOp, `maxFeePerGas must be at least ${minFee} (the base fee ${base} and one block's rise)`)
  if (op.paymaster && !isAddressEqual(op.paymaster, paymaster))
    throw new BundlerError(invalidUserOp, `This bundler sponsors only through its own paymaster ${paymaster}`)
  const kind = await accounts.of(op)
  if (op.paymaster && kind !== 'walletKit') throw notSponsorable(op)
}

/** Gas figures for an operation (eth_estimateUserOperationGas): its call run as the EntryPoint runs it, generous fixed validation limits. */
export async function estimateOperation(client: PublicClient, accounts: AccountKinds, op: UserOp): Promise<GasEstimate> {
  const deployed = !!(await client.getCode({ address: op.sender }))
  if (!deployed && !op.factory) throw new BundlerError(rejectedByEntryPoint, 'AA20 account not deployed')
  // Only accounts this bundler takes are simulated, and each for at most an operation's gas: an
  // estimate of any contract's loop, unbounded, held the chain for seconds per request.
  await accounts.of(op)
  const simple = !!op.factory && isAddressEqual(op.factory, simpleAccountFactoryAddress)
  let callGasLimit = 0n
  if (op.callData && op.callData !== '0x') {
    try {
      // Run the call as the EntryPoint will; a not yet deployed account runs as its implementation.
      const code = deployed ? undefined : await client.getCode({ address: simple ? simpleAccountImplementationAddress : accountImplementationAddress })
      // Sent as is: viem's estimateGas drops a request's `gas`, and with it the bound of the search.
      const request = { from: entryPointAddress, to: op.sender, data: op.callData, gas: numberToHex(maxGasPerOp) }
      const gas = hexToBigInt(
        await client.request({
          method: 'eth_estimateGas',
          params: code ? [request, 'latest', { [op.sender]: { code } }] : [request, 'latest'],
        }),
      )
      callGasLimit = (gas * 13n) / 10n + 10_000n
    } catch (error) {
      throw new BundlerError(bundlerErrorCodes.executionReverted, `The operation's call reverts: ${shortReason(error)}`)
    }
  }
  return {
    preVerificationGas: minPreVerificationGas(op) + 10_000n,
    // A SimpleAccount's deploy (an ERC1967Proxy and its initialize) takes more than our account's.
    verificationGasLimit: op.factory ? (simple ? 400_000n : 300_000n) : 100_000n,
    callGasLimit,
    paymasterVerificationGasLimit: op.paymaster ? defaultPaymasterVerificationGasLimit : 0n,
    paymasterPostOpGasLimit: 0n,
  }
}
