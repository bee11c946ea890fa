import { concat, encodeAbiParameters, parseAbi, type Address, type Client, type Hex, type LocalAccount } from 'viem'
import { toPackedUserOperation, type UserOperation } from 'viem/account-abstraction'
import { readContract } from 'viem/actions'

/**
 * The sponsorship data of eth-infinitism's VerifyingPaymaster (@account-abstraction/contracts 0.7.0,
 * EntryPoint v0.7). Its `paymasterAndData` is
 *   paymaster (20) ++ paymasterVerificationGasLimit (16) ++ paymasterPostOpGasLimit (16)
 *   ++ abi.encode(uint48 validUntil, uint48 validAfter) ++ signature (65)
 * where the signature is the verifying signer's EIP-191 `personal_sign` of the paymaster's
 * `getHash(userOp, validUntil, validAfter)`. That hash covers every field of the user operation
 * except the signatures, including the two paymaster gas limits: they are fixed before signing.
 * The fields come back in viem's unpacked v0.7 shape (what ERC-7677 `pm_getPaymasterData` returns).
 */
export const verifyingPaymasterAbi = parseAbi([
  'struct PackedUserOperation { address sender; uint256 nonce; bytes initCode; bytes callData; bytes32 accountGasLimits; uint256 preVerificationGas; bytes32 gasFees; bytes paymasterAndData; bytes signature; }',
  'function getHash(PackedUserOperation userOp, uint48 validUntil, uint48 validAfter) view returns (bytes32)',
  'function parsePaymasterAndData(bytes paymasterAndData) pure returns (uint48 validUntil, uint48 validAfter, bytes signature)',
  'function verifyingSigner() view returns (address)',
  'function entryPoint() view returns (address)',
  'function owner() view returns (address)',
])

/** Paymaster fields of a v0.7 user operation, as viem and ERC-7677 name them. */
export type PaymasterFields = {
  paymaster: Address
  paymasterData: Hex
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
}

/** What the paymaster's hash reads of a user operation: all but the signature and the paymaster fields. */
export type SponsorableUserOperation = Pick<
  UserOperation<'0.7'>,
  'sender' | 'nonce' | 'callData' | 'callGasLimit' | 'verificationGasLimit' | 'preVerificationGas' | 'maxFeePerGas' | 'maxPriorityFeePerGas'
> &
  Partial<Pick<UserOperation<'0.7'>, 'factory' | 'factoryData' | 'paymasterVerificationGasLimit' | 'paymasterPostOpGasLimit'>>

export type SponsorOptions = {
  paymaster: Address
  /** Unix seconds; 0 (the default) means no end. The EntryPoint rejects the operation outside the window (AA32). */
  validUntil?: number
  validAfter?: number
  /** Defaults: the user operation's own value (a bundler's estimate), else defaultPaymasterVerificationGasLimit. */
  paymasterVerificationGasLimit?: bigint
  /** Defaults: the user operation's own value, else 0 (the VerifyingPaymaster has no postOp). */
  paymasterPostOpGasLimit?: bigint
}

/** The VerifyingPaymaster needs about 18k gas to validate (measured: 17.5k); unused verification gas is not charged (v0.7 charges 10 % of unused call and postOp gas only). */
export const defaultPaymasterVerificationGasLimit = 100_000n

/**
 * A well-formed low-s ECDSA signature (of a throw-away key, over an unrelated hash) for gas
 * estimation: it recovers to an address that is not the verifying signer, so validation runs in full
 * and reports a signature failure instead of reverting, which all-0xff bytes do (AA33 under simulation).
 */
export const paymasterStubSignature: Hex =
  '0xa73a5e0a0758fe85441931150ef0cdd63d22b357a533b82e59f6fd8ab8bf2b2f1deb085032bbd152ec1a4e77ed209562a80da36683fa98159de6e30bbeed256d1c'

/** The part of `paymasterAndData` after the gas limits: abi.encode(uint48 validUntil, uint48 validAfter) ++ signature. */
export function encodePaymasterData({ validUntil, validAfter, signature }: { validUntil: number; validAfter: number; signature: Hex }): Hex {
  return concat([encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter]), signature])
}

function gasFields(options: SponsorOptions, userOp?: SponsorableUserOperation) {
  return {
    paymaster: options.paymaster,
    paymasterVerificationGasLimit: options.paymasterVerificationGasLimit ?? userOp?.paymasterVerificationGasLimit ?? defaultPaymasterVerificationGasLimit,
    paymasterPostOpGasLimit: options.paymasterPostOpGasLimit ?? userOp?.paymasterPostOpGasLimit ?? 0n,
  }
}

/** Stub paymaster fields for estimation (ERC-7677 `pm_getPaymasterStubData`): the final layout and length, no real signature. */
export function paymasterStubFields(options: SponsorOptions & { userOp?: SponsorableUserOperation }): PaymasterFields {
  const { validUntil = 0, validAfter = 0 } = options
  return { ...gasFields(options, options.userOp), paymasterData: encodePaymasterData({ validUntil, validAfter, signature: paymasterStubSignature }) }
}

/** The hash the verifying signer signs (EIP-191), read from the paymaster contract itself. */
export async function paymasterHash(client: Client, options: SponsorOptions & { userOp: SponsorableUserOperation }): Promise<Hex> {
  const { validUntil = 0, validAfter = 0 } = options
  // getHash reads the gas limits from paymasterAndData[20:52]; the data after them is not hashed.
  const packed = toPackedUserOperation({ ...options.userOp, ...gasFields(options, options.userOp), paymasterData: '0x', signature: '0x' })
  return readContract(client, {
    address: options.paymaster,
    abi: verifyingPaymasterAbi,
    functionName: 'getHash',
    args: [packed, validUntil, validAfter],
  })
}

/**
 * Sponsors a user operation: the paymaster fields with the verifying signer's signature (ERC-7677
 * `pm_getPaymasterData`). The account then signs the operation with these fields in it.
 */
export async function sponsor(client: Client, options: SponsorOptions & { signer: LocalAccount; userOp: SponsorableUserOperation }): Promise<PaymasterFields> {
  const { validUntil = 0, validAfter = 0 } = options
  const hash = await paymasterHash(client, options)
  const signature = await options.signer.signMessage({ message: { raw: hash } })
  return { ...gasFields(options, options.userOp), paymasterData: encodePaymasterData({ validUntil, validAfter, signature }) }
}
