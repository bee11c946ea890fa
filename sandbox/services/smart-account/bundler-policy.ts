import { getAddress, hexToBigInt, isAddressEqual, numberToHex, parseAbi, size, type Address, type PublicClient } from 'viem'
import { toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import {
  accountAddressOf,
  accountFactoryAddress,
  accountImplementationAddress,
  defaultPaymasterVerificationGasLimit,
  entryPointAddress,
  simpleAccountFactoryAddress,
  simpleAccountImplementationAddress,
} from '../../contracts/account-abstraction.ts'
import { BundlerError, bundlerErrorCodes, invalidUserOp, rejectedByEntryPoint, rejectedByPaymaster, shortReason } from './bundler-errors.ts'
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
 * The two kinds of account this bundler takes, both with validation code it knows (only the account's
 * own storage and an ecrecover, nothing that can pass a simulation and then fail in the bundle):
 * - `walletKit`: WalletKitAccount, of this sandbox's factory (its proxies of our implementation);
 * - `simple`: eth-infinitism's SimpleAccount v0.7, of the canonical SimpleAccountFactory, for stock
 *   clients. Its owner's EIP-191 signature of the userOpHash (one personal_sign of 32 bytes) is
 *   enough to spend it, so it pays for itself: no paymaster of ours ever sponsors it.
 */
type AccountKind = 'walletKit' | 'simple'

const factories: readonly [Address, AccountKind][] = [
  [accountFactoryAddress, 'walletKit'],
  [simpleAccountFactoryAddress, 'simple'],
]
const implementations: readonly [Address, AccountKind][] = [
  [accountImplementationAddress, 'walletKit'],
  [simpleAccountImplementationAddress, 'simple'],
]

/** Which kind of account sends `op` (its factory, or the implementation its proxy points at); a BundlerError for any other. */
async function accountKindOf(client: PublicClient, op: UserOp): Promise<AccountKind> {
  if (op.factory) {
    const factory = op.factory
    const kind = factories.find(([address]) => isAddressEqual(address, factory))?.[1]
    if (!kind)
      throw new BundlerError(invalidUserOp, `This bundler deploys only accounts of the factories ${factories.map(([address]) => address).join(' and ')}`)
    return kind
  }
  const slot = await client.getStorageAt({ address: op.sender, slot: implementationSlot })
  const implementation = slot && slot !== '0x' ? getAddress(`0x${slot.slice(-40)}`) : undefined
  const kind = implementation && implementations.find(([address]) => isAddressEqual(address, implementation))?.[1]
  if (!kind || !(await madeByFactory(client, op.sender, kind)))
    throw new BundlerError(invalidUserOp, 'This bundler takes operations of accounts made by its own factory (or the canonical SimpleAccountFactory) only')
  return kind
}

const ownerAbi = parseAbi(['function owner() view returns (address)'])
const simpleFactoryAbi = parseAbi(['function getAddress(address owner, uint256 salt) view returns (address)'])

/**
 * Whether `sender` is where its factory puts its owner's account: any contract can write an
 * implementation into its own ERC-1967 slot (and so look like one of ours), but only the factory
 * creates code at these CREATE2 addresses. A WalletKitAccount sits at its owner's salt (the owner,
 * then zeros); a SimpleAccount at salt 0, the index stock clients use by default.
 */
async function madeByFactory(client: PublicClient, sender: Address, kind: AccountKind): Promise<boolean> {
  const owner = await client.readContract({ address: sender, abi: ownerAbi, functionName: 'owner' }).catch(() => undefined)
  if (!owner) return false
  const expected =
    kind === 'walletKit'
      ? accountAddressOf(owner)
      : await client.readContract({ address: simpleAccountFactoryAddress, abi: simpleFactoryAbi, functionName: 'getAddress', args: [owner, 0n] })
  return isAddressEqual(expected, sender)
}

/**
 * Refuses sponsorship of any account but a WalletKitAccount: a SimpleAccount (or anything else) is
 * spent by a signature a site can get from its owner with personal_sign, so an app's gas tank must
 * never pay for one. The paymaster asks this before it signs (paymaster.ts), the bundler before it queues.
 */
export async function checkSponsorable(client: PublicClient, op: UserOp): Promise<void> {
  const kind = await accountKindOf(client, op).catch(() => undefined)
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
 * - only the accounts `accountKindOf` knows, so no operation carries validation code of its own that
 *   could pass the simulation and then fail the real transaction for a whole bundle;
 * - no paymaster, or the sandbox's own, and that for WalletKitAccounts only (`checkSponsorable`).
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
  const kind = await accountKindOf(client, op)
  if (op.paymaster && kind !== 'walletKit') throw notSponsorable(op)
}

/** Gas figures for an operation (eth_estimateUserOperationGas): its call run as the EntryPoint runs it, generous fixed validation limits. */
export async function estimateOperation(client: PublicClient, op: UserOp): Promise<GasEstimate> {
  const deployed = !!(await client.getCode({ address: op.sender }))
  if (!deployed && !op.factory) throw new BundlerError(rejectedByEntryPoint, 'AA20 account not deployed')
  // Only accounts this bundler takes are simulated, and each for at most an operation's gas: an
  // estimate of any contract's loop, unbounded, held the chain for seconds per request.
  await accountKindOf(client, op)
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
