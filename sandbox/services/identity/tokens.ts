import { randomUUID } from 'node:crypto'
import { SignJWT } from 'jose'
import { identityTokenType, type IdentityTokenPayload } from '../../../sdk/identity.ts'
import type { Deps } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import { findWallet } from '../account/queries.ts'
import type { App } from '../app-config/apps.ts'
import type { TokenClaims } from '../auth/jwt.ts'
import { familyExpiry, isFamilyRevoked } from '../auth/session-queries.ts'
import { signInMethodOf } from '../auth/sign-in-methods.ts'
import { accountsOf } from '../smart-account/queries.ts'
import { currentSigningKey, identityTokenLifetimeSeconds } from './key-ring.ts'

/**
 * An identity token for the signed-in user of a wallet token: ES256, signed by the provider's
 * current key, for the app's back end. It names the user, their wallets and how this session
 * began; nothing secret, nothing that lets its holder act as the user.
 */
export async function issueIdentityToken(deps: Deps, app: App, session: TokenClaims, nonce: string | undefined) {
  // The app guard refuses a revoked session's tokens already; a credential for another server is checked again here.
  if (!session.familyId || (await isFamilyRevoked(deps.store, session.familyId))) throw new HttpError(401, 'Session revoked')
  const wallet = await findWallet(deps.store, session.userId)
  if (!wallet) throw new HttpError(404, 'Wallet not found')
  const smartAccounts = await accountsOf(deps.store, app, wallet.address)
  const payload: Omit<IdentityTokenPayload, 'iss' | 'aud' | 'sub' | 'iat' | 'exp' | 'jti'> = {
    environment: app.environment,
    wallet_address: wallet.address,
    smart_accounts: smartAccounts.map((account) => ({ chain_id: account.chain_id, address: account.address })),
    sign_in_method: (await signInMethodOf(deps.store, session.familyId)) ?? 'unknown',
    ...(nonce === undefined ? {} : { nonce }),
  }
  const signer = await currentSigningKey(deps)
  const issuedAt = Math.floor(Date.now() / 1000)
  // A session the host capped (expireDate) names nobody past its cap: the token ends with it if sooner.
  const cap = await familyExpiry(deps.store, session.familyId)
  const expiresAt = Math.min(issuedAt + identityTokenLifetimeSeconds, cap ? Math.floor(cap.getTime() / 1000) : Number.POSITIVE_INFINITY)
  const identityToken = await new SignJWT(payload)
    .setProtectedHeader({ alg: 'ES256', kid: signer.kid, typ: identityTokenType })
    .setIssuer(deps.origin())
    .setAudience(app.appId)
    .setSubject(session.userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(randomUUID())
    .sign(signer.key)
  return { identityToken, expiresAt: new Date(expiresAt * 1000).toISOString() }
}

/** A nonce the page chose (its server checks it): 8 to 128 visible ASCII characters. */
export function readNonce(value: unknown): string {
  if (typeof value !== 'string' || !/^[\x21-\x7e]{8,128}$/.test(value)) throw new HttpError(400, 'nonce must be 8 to 128 visible ASCII characters')
  return value
}
