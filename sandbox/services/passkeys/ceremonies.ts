import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
} from '@simplewebauthn/server'
import type { App } from '../app-config/apps.ts'
import type { Deps } from '../../context.ts'
import { HttpError, type JsonObject } from '../../http/exchange.ts'
import {
  accountNameOf,
  consumeChallenge,
  countPasskeys,
  findPasskey,
  insertChallenge,
  insertPasskey,
  passkeysOf,
  recordUse,
  type Purpose,
  type StoredPasskey,
} from './queries.ts'
import { clientDataOf, readAssertion, readRegistration, type ClientData } from './responses.ts'

// The two WebAuthn ceremonies, with the provider's origin as relying party: registering a passkey
// for a signed-in user, and signing in with one. Each runs on a challenge the service made, stored,
// and takes back once; the browser's answer must come from the provider's own origin and name its
// host as RP ID, with the user verified.

export const passkeyPolicy = {
  /** How long a challenge can be answered; the browser's own timeout is shorter. */
  challengeSeconds: 180,
  ceremonyTimeoutMs: 120_000,
  /** Passkeys one account may hold. */
  maxPerUser: 10,
  maxNameLength: 64,
}

/** The relying party: the provider's origin, and its host name as RP ID. */
export function relyingParty(deps: Deps) {
  const origin = deps.origin()
  return { origin, rpID: new URL(origin).hostname }
}

const userIdBytes = (userId: string) => new TextEncoder().encode(userId)

export async function registrationOptions(deps: Deps, app: App, userId: string) {
  const { rpID } = relyingParty(deps)
  const existing = await passkeysOf(deps.store, userId)
  const options = await generateRegistrationOptions({
    rpName: app.name,
    rpID,
    userID: userIdBytes(userId),
    userName: await accountNameOf(deps.store, userId),
    attestationType: 'none',
    timeout: passkeyPolicy.ceremonyTimeoutMs,
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: [-7, -257],
  })
  await insertChallenge(deps.store, app, { value: options.challenge, purpose: 'register', userId, seconds: passkeyPolicy.challengeSeconds })
  return options
}

export async function signInOptions(deps: Deps, app: App) {
  const { rpID } = relyingParty(deps)
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'required', timeout: passkeyPolicy.ceremonyTimeoutMs })
  await insertChallenge(deps.store, app, { value: options.challenge, purpose: 'sign-in', seconds: passkeyPolicy.challengeSeconds })
  return options
}

/** Reads the challenge out of the response and takes its stored twin (refused when unknown, used, expired or another's). */
async function takeChallenge(deps: Deps, app: App, clientDataJSON: string, purpose: Purpose, userId?: string) {
  const clientData = clientDataOf(clientDataJSON, { ownOrigins: deps.ownOrigins(), appOrigins: app.allowedOrigins })
  const live = await consumeChallenge(deps.store, app, { value: clientData.challenge, purpose, ...(userId ? { userId } : {}) })
  if (!live) throw new HttpError(400, 'This passkey request has expired or was already used: start again')
  return clientData
}

export async function registerPasskey(deps: Deps, app: App, userId: string, body: JsonObject) {
  const credential = readRegistration(body)
  const name = readName(body.name)
  const { challenge } = await takeChallenge(deps, app, credential.response.clientDataJSON, 'register', userId)
  if ((await countPasskeys(deps.store, userId)) >= passkeyPolicy.maxPerUser) throw tooMany()
  const { origin, rpID } = relyingParty(deps)
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>
  try {
    verified = await verifyRegistrationResponse({
      response: credential,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    })
  } catch (error) {
    throw new HttpError(400, `Passkey not verified: ${(error as Error).message}`)
  }
  if (!verified.verified) throw new HttpError(400, 'Passkey not verified')
  const info = verified.registrationInfo
  if (info.credential.id !== credential.id) throw new HttpError(400, 'credential.id is not the credential the authenticator attested')
  const stored = {
    id: info.credential.id,
    userId,
    publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
    counter: info.credential.counter,
    transports: credential.response.transports ?? [],
    name: name ?? 'Passkey',
    backedUp: info.credentialBackedUp,
  }
  if (!(await insertPasskey(deps.store, app, stored, passkeyPolicy.maxPerUser))) {
    // Refused in the insert itself: registrations racing past the count above cannot pass the cap.
    if ((await countPasskeys(deps.store, userId)) >= passkeyPolicy.maxPerUser) throw tooMany()
    throw new HttpError(409, 'This passkey is already registered')
  }
  const passkey = (await passkeysOf(deps.store, userId)).find((p) => p.id === stored.id)
  return passkey && publicView(passkey)
}

/** Checks a sign-in assertion and answers the user it signs in. */
export async function verifySignIn(deps: Deps, app: App, body: JsonObject): Promise<string> {
  const credential = readAssertion(body)
  const { challenge, topOrigin } = await takeChallenge(deps, app, credential.response.clientDataJSON, 'sign-in')
  const stored = await findPasskey(deps.store, app, credential.id)
  if (!stored) throw new HttpError(401, 'This passkey is not registered with this app (it may have been removed)')
  await checkAssertion(deps, credential, { challenge, topOrigin }, stored)
  return stored.userId
}

/**
 * Checks an assertion of `stored` over `challenge` (origin, RP ID, top origin, user verification,
 * signature, a counter that goes up, the user handle) and records the use. Throws 401 when it fails.
 */
export async function checkAssertion(deps: Deps, credential: AuthenticationResponseJSON, clientData: ClientData, stored: StoredPasskey): Promise<void> {
  const { challenge, topOrigin } = clientData
  const { origin, rpID } = relyingParty(deps)
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>
  try {
    verified = await verifyAuthenticationResponse({
      response: credential,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      ...(topOrigin ? { expectedTopOrigin: topOrigin } : {}),
      credential: {
        id: stored.id,
        publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
        counter: stored.counter,
        transports: stored.transports as AuthenticatorTransport[],
      },
      requireUserVerification: true,
    })
  } catch (error) {
    throw new HttpError(401, `Passkey not verified: ${(error as Error).message}`)
  }
  if (!verified.verified) throw new HttpError(401, 'Passkey not verified')
  // Only after the signature: checked before it, the answer would tell anyone naming a credential id
  // whether a guessed user id is its owner's.
  const handle = credential.response.userHandle
  if (handle !== undefined && Buffer.from(handle, 'base64url').toString('utf8') !== stored.userId)
    throw new HttpError(401, 'This passkey belongs to another account')
  if (!(await recordUse(deps.store, stored.id, stored.counter, verified.authenticationInfo.newCounter)))
    throw new HttpError(401, 'This passkey was used or removed meanwhile: try again')
}

const tooMany = () => new HttpError(409, `An account holds at most ${passkeyPolicy.maxPerUser} passkeys: remove one first`)

function readName(value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value.trim() === '') throw new HttpError(400, 'name must be a non-empty string')
  if (value.length > passkeyPolicy.maxNameLength) throw new HttpError(400, 'name is too long')
  return value.trim()
}

/** What the account's owner sees of a passkey: never its public key or counter. */
export const publicView = (p: Awaited<ReturnType<typeof passkeysOf>>[number]) => ({
  id: p.id,
  name: p.name,
  createdAt: p.createdAt,
  lastUsedAt: p.lastUsedAt,
  backedUp: p.backedUp,
})
