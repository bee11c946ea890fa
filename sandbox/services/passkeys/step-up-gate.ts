import type { App } from '../app-config/apps.ts'
import type { Deps } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import { stepUpFactors } from '../step-up/factors.ts'
import { contactOf } from '../step-up/queries.ts'
import { requireStepUp, type StepUpSession } from '../step-up/step-up.ts'
import { countPasskeys, signedInWithin } from './queries.ts'

// Adding or removing a passkey changes who can sign in to the account for good: a thief holding a
// stolen wallet token (good for minutes) could otherwise register their own passkey and keep the
// account, or remove the owner's. So both need a fresh second factor, like key export.

const signInMethodPolicy = {
  /**
   * A user no second factor can reach (no e-mail address and no passkey yet: signed in by phone,
   * Telegram or a password) may change their passkeys only this soon after the session's own sign-in: the sign-in
   * itself is then the fresh proof that it is them. Later, they sign in again.
   */
  freshSignInSeconds: 5 * 60,
}

type Change = { action: 'add-sign-in-method'; requestHash?: never } | { action: 'remove-sign-in-method'; requestHash: string }

/**
 * Lets a change of the caller's passkeys go ahead, or refuses it with 403 (`data.stepUp` names the
 * action; for a user with no factor, `factors: []` and the minutes after a sign-in that would do).
 * A proof, when sent, is always checked and spent. Without one: a user a factor can reach is
 * refused; one no factor can reach passes only within `freshSignInSeconds` of the session's sign-in.
 */
export async function requireSignInMethodStepUp(deps: Deps, app: App, session: StepUpSession, change: Change, proof: unknown): Promise<void> {
  const requestHash = change.requestHash ?? null
  if (proof !== undefined && proof !== null && proof !== '') return requireStepUp(deps, app, session, change.action, proof, requestHash)
  const contact = await contactOf(deps.store, session.userId)
  // A passkey is a factor too: once the user has one, the fresh sign-in alone no longer does.
  const user = { userId: session.userId, email: contact?.email ?? null, hasPasskey: (await countPasskeys(deps.store, session.userId)) > 0 }
  if (stepUpFactors.some((f) => f.available(user))) return requireStepUp(deps, app, session, change.action, proof, requestHash)
  if (await signedInWithin(deps.store, session.familyId, signInMethodPolicy.freshSignInSeconds)) return
  const minutes = signInMethodPolicy.freshSignInSeconds / 60
  throw new HttpError(
    403,
    `Step-up required: this account has no e-mail address for a confirmation code, so passkeys can be added or removed only within ${minutes} minutes of signing in. Sign in again, then try once more`,
    { data: { stepUp: { action: change.action, factors: [], freshSignInMinutes: minutes } } },
  )
}
