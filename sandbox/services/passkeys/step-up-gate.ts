import type { App } from '../app-config/apps.ts'
import type { Deps } from '../../context.ts'
import { requireFreshFactor } from '../step-up/fresh-factor-gate.ts'
import type { StepUpSession } from '../step-up/step-up.ts'

// Adding or removing a passkey changes who can sign in to the account for good: a thief holding a
// stolen wallet token (good for minutes) could otherwise register their own passkey and keep the
// account, or remove the owner's. So both pass the fresh-factor gate, like a granted permission.

type Change = { action: 'add-sign-in-method'; requestHash?: never } | { action: 'remove-sign-in-method'; requestHash: string }

/**
 * Lets a change of the caller's passkeys go ahead, or refuses it with 403: a proof for the change
 * (a removal's bound to the passkey), or, for a user no factor can reach, a fresh sign-in
 * (step-up/fresh-factor-gate.ts).
 */
export function requireSignInMethodStepUp(deps: Deps, app: App, session: StepUpSession, change: Change, proof: unknown): Promise<void> {
  const gated = { action: change.action, requestHash: change.requestHash ?? null, lateWhat: 'passkeys can be added or removed' }
  return requireFreshFactor(deps, app, session, gated, proof)
}
