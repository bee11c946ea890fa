import type { App } from '../app-config/apps.ts'
import type { Deps } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import { countPasskeys, signedInWithin } from '../passkeys/queries.ts'
import { stepUpFactors, type StepUpFactor } from './factors.ts'
import { contactOf } from './queries.ts'
import { requireStepUp, type StepUpAction, type StepUpSession } from './step-up.ts'

// The gate of a change that hands the account or the wallet to whoever makes it (a sign-in method
// added or removed, the signing permission granted): a stolen wallet token (good for minutes) must
// not be enough for it. A user a second factor can reach answers that factor; a user no factor can
// reach has only their sign-in to show, so the change must follow it closely.

const freshFactorPolicy = {
  /**
   * A user no second factor can reach (no e-mail address and no passkey yet: signed in by phone,
   * Telegram or a password) may make such a change only this soon after the session's own sign-in:
   * the sign-in itself is then the fresh proof that it is them. Later, they sign in again.
   */
  freshSignInSeconds: 5 * 60,
}

/**
 * A gated change: its step-up action, the request its proof is bound to (null: the action alone),
 * and, in words, what a user no factor reaches may do only soon after signing in ("passkeys can be
 * added or removed").
 */
export type GatedChange = { action: StepUpAction; requestHash: string | null; lateWhat: string }

/** The second factors that can reach `userId` (a passkey counts once the user has one), in the order they are offered. */
export async function reachableFactors(deps: Deps, userId: string): Promise<StepUpFactor['name'][]> {
  const contact = await contactOf(deps.store, userId)
  const user = { userId, email: contact?.email ?? null, hasPasskey: (await countPasskeys(deps.store, userId)) > 0 }
  return stepUpFactors.filter((f) => f.available(user)).map((f) => f.name)
}

/**
 * Lets a gated change go ahead, or refuses it with 403 (`data.stepUp` names the action; for a user
 * with no factor, `factors: []` and the minutes after a sign-in that would do). A proof, when sent,
 * is always checked and spent. Without one: a user a factor can reach is refused; one no factor can
 * reach passes only within `freshSignInSeconds` of the session's sign-in.
 */
export async function requireFreshFactor(deps: Deps, app: App, session: StepUpSession, change: GatedChange, proof: unknown): Promise<void> {
  if (proof !== undefined && proof !== null && proof !== '') return requireStepUp(deps, app, session, change.action, proof, change.requestHash)
  if ((await reachableFactors(deps, session.userId)).length > 0) return requireStepUp(deps, app, session, change.action, proof, change.requestHash)
  if (await signedInWithin(deps.store, session.familyId, freshFactorPolicy.freshSignInSeconds)) return
  const minutes = freshFactorPolicy.freshSignInSeconds / 60
  throw new HttpError(
    403,
    `Step-up required: this account has no e-mail address for a confirmation code, so ${change.lateWhat} only within ${minutes} minutes of signing in. Sign in again, then try once more`,
    { data: { stepUp: { action: change.action, factors: [], freshSignInMinutes: minutes } } },
  )
}
