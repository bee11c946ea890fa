import type { CallOptions, Context } from '../config.ts'
import { walletTokenCall } from '../http.ts'
import type { SignatureResult } from './types.ts'

// What the wallet key signs for the wallet's own smart accounts (POST /wallet/sign-user-operation,
// sign-account-message, sign-account-typed-data): the service computes every hash itself, so the
// caller names an operation or a message, never a hash. Kept apart from the wallet client, whose
// every path ships in the frame's first chunk; the frame loads these with its smart account.

/**
 * The owner's authorisation of the stored user operation `userOpId` of one of the wallet's smart
 * accounts. stepUpProof: a `send-transaction` proof for the operation's calls
 * (transaction-hash.ts `operationRequestHash`) when their value together is above the app's threshold.
 */
export function signUserOperation(ctx: Context, params: { userOpId: string; stepUpProof?: string }, options?: CallOptions): Promise<SignatureResult> {
  return walletTokenCall<SignatureResult>(ctx, '/wallet/sign-user-operation', params, options)
}

/** The smart account's ERC-1271 signature (ERC-7739; ERC-6492 while undeployed) of a personal_sign message: 0x-hex bytes or text. */
export function signAccountMessage(ctx: Context, params: { accountId: string; message: string }, options?: CallOptions): Promise<SignatureResult> {
  return walletTokenCall<SignatureResult>(ctx, '/wallet/sign-account-message', params, options)
}

/** The same for EIP-712 typed data, given as its JSON. */
export function signAccountTypedData(ctx: Context, params: { accountId: string; typedData: string }, options?: CallOptions): Promise<SignatureResult> {
  return walletTokenCall<SignatureResult>(ctx, '/wallet/sign-account-typed-data', params, options)
}
