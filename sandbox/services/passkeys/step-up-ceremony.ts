import { generateAuthenticationOptions, type AuthenticatorTransport } from '@simplewebauthn/server'
import type { App } from '../app-config/apps.ts'
import type { Deps } from '../../context.ts'
import { HttpError, type JsonObject } from '../../http/exchange.ts'
import { checkAssertion, passkeyPolicy, relyingParty } from './ceremonies.ts'
import { consumeChallenge, findPasskey, insertChallenge, passkeysOf } from './queries.ts'
import { clientDataOf, readAssertion } from './responses.ts'

// A passkey assertion as a step-up's second factor: the sign-in ceremony's checks, on a challenge of
// its own purpose (`step-up`) stored for one user, answerable only with one of that user's passkeys.
// The step-up service keeps which challenge belongs to which action, request and session.

/** Request options for `userId`'s passkeys (user verification required); its challenge is stored for them. */
export async function stepUpPasskeyOptions(deps: Deps, app: App, userId: string) {
  const { rpID } = relyingParty(deps)
  const passkeys = await passkeysOf(deps.store, userId)
  const options = await generateAuthenticationOptions({
    rpID,
    userVerification: 'required',
    timeout: passkeyPolicy.ceremonyTimeoutMs,
    allowCredentials: passkeys.map((p) => ({ id: p.id, transports: p.transports as AuthenticatorTransport[] })),
  })
  await insertChallenge(deps.store, app, { value: options.challenge, purpose: 'step-up', userId, seconds: passkeyPolicy.challengeSeconds })
  return options
}

/**
 * Checks `body.credential`, an assertion over `challenge` (the one handed out for this step-up) by a
 * passkey of `userId`. The challenge is taken out before the signature is checked: it answers once,
 * whatever the answer turns out to be.
 */
export async function verifyStepUpPasskey(deps: Deps, app: App, userId: string, challenge: string, body: JsonObject): Promise<void> {
  const credential = readAssertion(body)
  const clientData = clientDataOf(credential.response.clientDataJSON, { ownOrigins: deps.ownOrigins(), appOrigins: app.allowedOrigins })
  // An answer over another challenge (a sign-in's, another step-up's) answers nothing here.
  if (clientData.challenge !== challenge) throw new HttpError(400, 'This passkey answer is not for this confirmation: start again')
  if (!(await consumeChallenge(deps.store, app, { value: challenge, purpose: 'step-up', userId })))
    throw new HttpError(400, 'This passkey request has expired or was already used: start again')
  const stored = await findPasskey(deps.store, app, credential.id)
  // Another user's passkey is as unknown as a removed one.
  if (!stored || stored.userId !== userId) throw new HttpError(400, "This passkey is not one of this account's (it may have been removed)")
  try {
    await checkAssertion(deps, credential, clientData, stored)
  } catch (error) {
    // A refused answer is 400, as a wrong code is: here 401 would say the wallet token is bad, and a
    // client would refresh it and send the spent answer again.
    if (error instanceof HttpError && error.status === 401) throw new HttpError(400, error.message)
    throw error
  }
}
