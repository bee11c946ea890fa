import { getAddress, isAddressEqual, size, type Address, type PublicClient } from 'viem'
import { toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import {
  accountFactoryAddress,
  accountImplementationAddress,
  defaultPaymasterVerificationGasLimit,
  entryPointAddress,
} from '../../contracts/account-abstraction.ts'
import { BundlerError, invalidUserOp, rejectedByEntryPoint, shortReason } from './bundler-errors.ts'
import type { GasEstimate } from './bundler.ts'

type UserOp = UserOperation<'0.7'>

/** Most gas one operation may ask for (call, verification and paymaster verification): a bundle is not one attacker's. */
export const maxGasPerOp = 5_000_000n

/** The most an operation can cost whoever pays its gas (the account, or the paymaster). */
export const maxCostOf = (op: UserOp): bigint =>
  (op.preVerificationGas + op.verificationGasLimit + op.callGasLimit + (op.paymasterVerificationGasLimit ?? 0n) + (op.paymasterPostOpGasLimit ?? 0n)) *
  op.maxFeePerGas

/** ERC-1967's implementation slot, where our factory's proxies keep the account implementation. */
const implementationSlot = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc'

/** What an operation's calldata costs the bundler beyond its own gas: `preVerificationGas` must cover it. */
export function minPreVerificationGas(op: UserOp): bigint {
  const packed = toPackedUserOperation(op)
  const bytes = size(packed.callData) + size(packed.initCode) + size(packed.paymasterAndData) + size(packed.signature) + 300
  return 40_000n + BigInt(bytes) * 16n
}

/**
 * What this bundler accepts before it spends anything on an operation (a light form of ERC-7562):
 * - fees that pay its `handleOps` transaction: a max fee of at least the base fee plus one block's
 *   rise (12.5 %), so the bundler is paid back what the operation's gas costs it;
 * - gas limits within `maxGasPerOp`, and a `preVerificationGas` that covers the calldata;
 * - only accounts of this sandbox's factory (deployed ones are its proxies of our implementation),
 *   so no operation carries validation code of its own that could pass the simulation and then fail
 *   the real transaction for a whole bundle;
 * - no paymaster, or the sandbox's own.
 */
export async function checkOperation(client: PublicClient, op: UserOp, paymaster: Address): Promise<void> {
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
  if (op.factory) {
    if (!isAddressEqual(op.factory, accountFactoryAddress))
      throw new BundlerError(invalidUserOp, `This bundler deploys only accounts of the factory ${accountFactoryAddress}`)
    return
  }
  const slot = await client.getStorageAt({ address: op.sender, slot: implementationSlot })
  const implementation = slot && slot !== '0x' ? getAddress(`0x${slot.slice(-40)}`) : undefined
  if (!implementation || !isAddressEqual(implementation, accountImplementationAddress))
    throw new BundlerError(invalidUserOp, 'This bundler takes operations of accounts made by its own factory only')
}

/** Gas figures for an operation (eth_estimateUserOperationGas): its call run as the EntryPoint runs it, generous fixed validation limits. */
export async function estimateOperation(client: PublicClient, op: UserOp): Promise<GasEstimate> {
  const deployed = !!(await client.getCode({ address: op.sender }))
  if (!deployed && !op.factory) throw new BundlerError(rejectedByEntryPoint, 'AA20 account not deployed')
  let callGasLimit = 0n
  if (op.callData && op.callData !== '0x') {
    try {
      // Run the call as the EntryPoint will; a not yet deployed account runs as the implementation.
      const code = deployed ? undefined : await client.getCode({ address: accountImplementationAddress })
      const gas = await client.estimateGas({
        account: entryPointAddress,
        to: op.sender,
        data: op.callData,
        ...(code ? { stateOverride: [{ address: op.sender, code }] } : {}),
      })
      callGasLimit = (gas * 13n) / 10n + 10_000n
    } catch (error) {
      throw new BundlerError(rejectedByEntryPoint, `The operation's call reverts: ${shortReason(error)}`)
    }
  }
  return {
    preVerificationGas: minPreVerificationGas(op) + 10_000n,
    verificationGasLimit: op.factory ? 300_000n : 100_000n,
    callGasLimit,
    paymasterVerificationGasLimit: op.paymaster ? defaultPaymasterVerificationGasLimit : 0n,
    paymasterPostOpGasLimit: 0n,
  }
}
