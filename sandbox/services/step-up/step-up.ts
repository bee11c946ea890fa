import { createHash, randomBytes } from 'node:crypto'
import type { App } from '../app-config/apps.ts'
import type { Deps } from '../../context.ts'
import { HttpError, type JsonObject } from '../../http/exchange.ts'
import { decrypt, encrypt } from '../../infra/keys.ts'
import type { TokenClaims } from '../auth/jwt.ts'
import { countPasskeys } from '../passkeys/queries.ts'
import { stepUpFactors, type StepUpFactor } from './factors.ts'
import { contactOf, endChallenge, insertChallenge, insertProof, liveChallenge, proofByHash, takeProof, type Binding } from './queries.ts'

// Step-up: a fresh second factor before an action that takes value or control out of the wallet.
// A stolen wallet token (or a session left open) is then not enough for it: the action also needs
// a proof that someone answered the factor just now, for this very action, in this very session.

/**
 * The actions a proof can be for, each with the words the factor's message uses. A new action is
 * one line here and one `requireStepUp` call in the route that carries it out.
 */
export const stepUpActions = {
  'export-key': "export your wallet's private key",
  'add-sign-in-method': 'add a sign-in method to your account',
  'remove-sign-in-method': 'remove a sign-in method from your account',
  'send-transaction': 'send a transaction from your wallet',
  'grant-permissions': 'grant permissions over your wallet',
  'loosen-step-up': 'let larger transactions go without a second factor',
} as const satisfies Record<string, string>

export type StepUpAction = keyof typeof stepUpActions

export const stepUpPolicy = {
  /** How long a proof may wait for its action: long enough to read the screen, too short to keep. */
  proofLifetimeMs: 5 * 60 * 1000,
} as const

/** The session a step-up is for: the caller's wallet token's user and refresh family. */
export type StepUpSession = { userId: string; familyId: string }

/** The session of a wallet token's claims; a token naming no session (the app guard refuses those too) is 401. */
export function stepUpSession(claims: TokenClaims): StepUpSession {
  if (!claims.familyId) throw new HttpError(401, 'Invalid token')
  return { userId: claims.userId, familyId: claims.familyId }
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')
const token = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`
const sealContext = (idHash: string) => `step-up-challenge:${idHash}`

export function readAction(value: unknown): StepUpAction {
  if (typeof value !== 'string' || !Object.hasOwn(stepUpActions, value))
    throw new HttpError(400, `action must be one of ${Object.keys(stepUpActions).join(', ')}`)
  return value as StepUpAction
}

/** The request a proof is bound to: the 0x-hex SHA-256 or keccak-256 of it, lower-cased; absent is none. */
export function readRequestHash(value: unknown): string | null {
  if (value === undefined || value === null) return null
  if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(value)) throw new HttpError(400, 'request must be a 0x-hex 32-byte hash of the request')
  return value.toLowerCase()
}

/**
 * Whom a step-up's codes and wrong answers are counted for: the session, not the caller's address.
 * The one who asks is a holder of the session's token (maybe a thief of it), and moving to another
 * address must not buy more guesses; a new session takes a new login. Counting per session locks
 * out no other session of the user's: their own device still gets codes checked.
 */
const sessionRequester = (session: StepUpSession) => `step-up session ${session.familyId}`

/** The factor names a client can say it runs. */
type FactorName = StepUpFactor['name']

/**
 * The factors the client says it can run (`factors`, e.g. `['passkey', 'email']`): a screen that can
 * run no WebAuthn ceremony names none, and an older one sends nothing, which means the e-mail code.
 */
export function readFactors(value: unknown): FactorName[] {
  if (value === undefined) return ['email']
  const names = stepUpFactors.map((f) => f.name)
  if (!Array.isArray(value) || value.length === 0 || value.length > names.length || !value.every((v) => names.includes(v)))
    throw new HttpError(400, `factors must be a list of ${names.join(', ')}`)
  return value as FactorName[]
}

/**
 * Starts a step-up for `action` (and `requestHash`) in the caller's session: the first factor both
 * the user and the client can use is asked (a passkey before an e-mail code). Answers the challenge
 * id the answer must name, what the factor shows (`sentTo`, or WebAuthn `options`), and the other
 * factors the client could fall back to (`otherFactors`, when there are).
 */
export async function startStepUp(
  deps: Deps,
  app: App,
  session: StepUpSession,
  action: StepUpAction,
  requestHash: string | null,
  clientFactors: FactorName[] = ['email'],
) {
  const contact = await contactOf(deps.store, session.userId)
  const user = { userId: session.userId, email: contact?.email ?? null, hasPasskey: (await countPasskeys(deps.store, session.userId)) > 0 }
  const usable = stepUpFactors.filter((f) => f.available(user))
  const offered = usable.filter((f) => clientFactors.includes(f.name))
  const factor = offered[0]
  if (!factor) {
    if (usable.length === 0)
      throw new HttpError(409, 'No second factor is set up for this account: a confirmation code needs an e-mail address on the account', {
        data: { factors: [] },
      })
    throw new HttpError(409, `This account confirms with a ${usable[0]?.name}, which this screen cannot ask for`, {
      data: { factors: usable.map((f) => f.name) },
    })
  }
  const started = await factor.start(deps, app, user, stepUpActions[action], sessionRequester(session))
  const challengeId = token('suc')
  const idHash = sha256(challengeId)
  const expiresAt = new Date(Date.now() + factor.lifetimeMs).toISOString()
  await insertChallenge(deps.store, app, {
    idHash,
    ...session,
    action,
    requestHash,
    factor: factor.name,
    sealedState: encrypt(deps.keys.masterKey, Buffer.from(started.state), sealContext(idHash)),
    expiresAt,
  })
  const otherFactors = offered.slice(1).map((f) => f.name)
  return { challengeId, factor: factor.name, action, expiresAt, ...started.hint, ...(otherFactors.length > 0 ? { otherFactors } : {}) }
}

const unknownChallenge = () => new HttpError(400, 'Unknown or expired step-up challenge, start again')

/**
 * Checks the answer to a challenge of the caller's own session and, when right, answers a proof for
 * the challenge's action and request: random, stored only as its hash, usable once within
 * `stepUpPolicy.proofLifetimeMs`. A wrong answer costs what the factor says (a code's tries, the
 * wrong-code budget) and leaves the challenge for another try.
 */
export async function verifyStepUp(deps: Deps, app: App, session: StepUpSession, challengeId: string, answer: JsonObject) {
  const idHash = sha256(challengeId)
  const challenge = await liveChallenge(deps.store, app, idHash)
  // Another session's challenge is as unknown as one that never was.
  if (!challenge || challenge.user_id !== session.userId || challenge.family_id !== session.familyId) throw unknownChallenge()
  const factor = stepUpFactors.find((f) => f.name === challenge.factor) as StepUpFactor | undefined
  if (!factor) throw unknownChallenge()
  const state = Buffer.from(decrypt(deps.keys.masterKey, challenge.sealed_state, sealContext(idHash))).toString()
  await factor.verify(deps, app, state, answer)
  if (!(await endChallenge(deps.store, idHash))) throw unknownChallenge()

  const stepUpProof = token('sup')
  const expiresAt = new Date(Date.now() + stepUpPolicy.proofLifetimeMs).toISOString()
  const binding: Binding = { ...session, action: challenge.action, requestHash: challenge.request_hash }
  await insertProof(deps.store, app, { proofHash: sha256(stepUpProof), ...binding, factor: factor.name, expiresAt })
  return { stepUpProof, action: challenge.action, expiresAt }
}

/**
 * Spends a step-up proof on `action` (and `requestHash`) for the caller's session, or refuses the
 * action: 403 with `data.stepUp` naming the action, which a client turns into its step-up screen.
 * Every binding is checked and the proof marked used in one statement (queries.ts takeProof).
 */
export async function requireStepUp(deps: Deps, app: App, session: StepUpSession, action: StepUpAction, proof: unknown, requestHash: string | null = null) {
  const refuse = (reason: string) => new HttpError(403, `Step-up required: ${reason}`, { data: { stepUp: { action } } })
  if (proof === undefined || proof === null || proof === '') throw refuse('confirm it with a second factor first')
  if (typeof proof !== 'string' || proof.length > 200) throw refuse('the step-up proof is not valid')
  const proofHash = sha256(proof)
  if (await takeProof(deps.store, app, proofHash, { ...session, action, requestHash })) return
  const row = await proofByHash(deps.store, app, proofHash)
  // Another user's proof reads as no proof at all.
  if (!row || row.user_id !== session.userId) throw refuse('the step-up proof is not valid')
  if (row.revoked) throw new HttpError(401, 'Session revoked')
  if (row.family_id !== session.familyId) throw refuse('the step-up proof belongs to another session')
  if (row.action !== action) throw refuse('the step-up proof is for another action')
  if (row.request_hash !== requestHash) throw refuse('the step-up proof is for another request')
  if (row.used_at) throw refuse('the step-up proof was already used')
  throw refuse('the step-up proof has expired')
}
