import type { CallOptions, Context } from '../config.ts'
import { walletTokenCall } from '../http.ts'
import type { PasskeyCredentialJson, PasskeyOptionsJson } from '../passkeys.ts'

// Step-up and key export, as the wallet frame calls them with the session the token holder keeps
// (a 401 refreshes the held pair once and repeats the call, as every wallet call does).

/** The actions a step-up proof can be asked for. */
export type StepUpAction = 'export-key' | 'add-sign-in-method' | 'remove-sign-in-method' | 'send-transaction' | 'grant-permissions' | 'loosen-step-up'

/** The second factors a client can run: a passkey assertion, an e-mail code. */
export type StepUpFactor = 'passkey' | 'email'

/**
 * A started step-up: the id its answer names, and what to ask: where the code went (`sentTo`,
 * masked) or the WebAuthn request `options` for the user's passkeys; `otherFactors`, those of the
 * client's the user could use instead (an e-mail code when the passkey ceremony cannot run).
 */
export type StepUpChallenge = {
  challengeId: string
  factor: StepUpFactor
  action: StepUpAction
  expiresAt: string
  sentTo?: string
  options?: PasskeyOptionsJson
  otherFactors?: StepUpFactor[]
}

/** A passed step-up: the proof, good once for its action within a few minutes. */
export type StepUpProof = { stepUpProof: string; action: StepUpAction; expiresAt: string }

/**
 * POST auth/step-up/start: asks the user's second factor for `action`, among the `factors` this
 * client can run (none named: the e-mail code only).
 */
export function startStepUp(
  ctx: Context,
  params: { action: StepUpAction; request?: `0x${string}`; factors?: StepUpFactor[] },
  options?: CallOptions,
): Promise<StepUpChallenge> {
  return walletTokenCall<StepUpChallenge>(ctx, '/auth/step-up/start', params, options)
}

/** POST auth/step-up/verify: the code the user typed (or the passkey's assertion), for the challenge; answers the proof. */
export function verifyStepUp(
  ctx: Context,
  params: { challengeId: string; code: string } | { challengeId: string; credential: PasskeyCredentialJson },
  options?: CallOptions,
): Promise<StepUpProof> {
  return walletTokenCall<StepUpProof>(ctx, '/auth/step-up/verify', params, options)
}

/**
 * POST account/export-key: the wallet's private key, for a step-up proof of `export-key` from this
 * session (spent by the call). The caller keeps the key only as long as it shows it.
 */
export function exportPrivateKey(ctx: Context, params: { stepUpProof: string }, options?: CallOptions): Promise<{ privateKey: `0x${string}` }> {
  return walletTokenCall<{ privateKey: `0x${string}` }>(ctx, '/account/export-key', params, options)
}
