import type { CallOptions, Context } from '../config.ts'
import { walletTokenCall } from './transport.ts'

// Step-up and key export, as the wallet frame calls them with the session the token holder keeps
// (a 401 refreshes the held pair once and repeats the call, as every wallet call does).

/** The actions a step-up proof can be asked for. */
export type StepUpAction = 'export-key' | 'add-sign-in-method' | 'remove-sign-in-method' | 'send-transaction' | 'grant-permissions'

/** A started step-up: the id its answer names, and where the code went (`sentTo`, masked). */
export type StepUpChallenge = { challengeId: string; factor: 'email'; action: StepUpAction; expiresAt: string; sentTo?: string }

/** A passed step-up: the proof, good once for its action within a few minutes. */
export type StepUpProof = { stepUpProof: string; action: StepUpAction; expiresAt: string }

/** POST auth/step-up/start: asks the user's second factor (a code to their e-mail) for `action`. */
export function startStepUp(ctx: Context, params: { action: StepUpAction; request?: `0x${string}` }, options?: CallOptions): Promise<StepUpChallenge> {
  return walletTokenCall<StepUpChallenge>(ctx, '/auth/step-up/start', params, options)
}

/** POST auth/step-up/verify: the code the user typed, for the challenge; answers the proof. */
export function verifyStepUp(ctx: Context, params: { challengeId: string; code: string }, options?: CallOptions): Promise<StepUpProof> {
  return walletTokenCall<StepUpProof>(ctx, '/auth/step-up/verify', params, options)
}

/**
 * POST account/export-key: the wallet's private key, for a step-up proof of `export-key` from this
 * session (spent by the call). The caller keeps the key only as long as it shows it.
 */
export function exportPrivateKey(ctx: Context, params: { stepUpProof: string }, options?: CallOptions): Promise<{ privateKey: `0x${string}` }> {
  return walletTokenCall<{ privateKey: `0x${string}` }>(ctx, '/account/export-key', params, options)
}
