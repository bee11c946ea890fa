import { randomUUID } from 'node:crypto'
import type { App } from '../app-config/apps.ts'
import type { Store } from '../../infra/database/store.ts'
import { HttpError } from '../../http/exchange.ts'
import { insertRefreshToken, type RefreshRow, refreshTokenById, revokeFamilies, redeemRefreshToken } from './session-queries.ts'
import { signToken, tokenLifetimes, verifyToken } from './jwt.ts'

// A session is one login's refresh family. Its id (the family id) is also in every wallet and access
// token handed out for it (the `fam` claim), so revoking the family (logout, or a reused refresh
// token) ends those bearer tokens too, before their 15 minutes are up: every /api/v2 call checks it
// (app-guard.ts refuseRevokedBearer).

/**
 * The refresh token of a login that found no wallet (its `accessToken` is only for account/create,
 * which starts the wallet's own 7-day chain in the same session). Left unused it would be a 7-day
 * credential nobody holds on to: it dies with the access token instead.
 */
export const unusedLoginRefreshSeconds = 15 * 60

export const newSessionId = () => randomUUID()

/** Issues a refresh token: a new family at login, or the next link of `familyId` on rotation. */
export async function issueRefreshToken(
  store: Store,
  jwtKey: Uint8Array,
  app: App,
  userId: string,
  options: { familyId?: string; expiresAt?: Date } = {},
): Promise<string> {
  const id = randomUUID()
  const familyId = options.familyId ?? newSessionId()
  const longest = new Date(Date.now() + tokenLifetimes.refresh * 1000)
  const expiresAt = options.expiresAt && options.expiresAt < longest ? options.expiresAt : longest
  await insertRefreshToken(store, { id, familyId, userId, expiresAt: expiresAt.toISOString() })
  return signToken(jwtKey, { kind: 'refresh', userId, appId: app.appId, environment: app.environment, tokenId: id, familyId }, expiresAt)
}

/**
 * Marks a refresh token used and returns its row. Each token works once: presenting a used one
 * means it leaked (or a client raced itself), so the whole family is revoked (OAuth 2.1 §4.3.1).
 */
export async function consumeRefreshToken(store: Store, jwtKey: Uint8Array, app: App, token: string): Promise<RefreshRow> {
  const claims = await verifyToken(jwtKey, token, { kind: 'refresh', appId: app.appId, environment: app.environment })
  if (!claims.tokenId) throw new HttpError(401, 'Invalid token')
  const used = await redeemRefreshToken(store, claims.tokenId)
  if (used) return used
  const row = await refreshTokenById(store, claims.tokenId)
  if (row?.used_at && !row.revoked_at) {
    await revokeFamilies(store, [row.family_id])
    throw new HttpError(401, 'Refresh token reused; session revoked')
  }
  throw new HttpError(401, row?.revoked_at ? 'Session revoked' : 'Invalid token')
}

/**
 * The session a genuine wallet, access or refresh token of this app belongs to, for logout. An
 * expired token still names it: ending a session is harmless, and a user back after an hour must
 * still be able to log out.
 */
export async function sessionNamedBy(jwtKey: Uint8Array, app: App, token: string, kind: 'wallet' | 'access' | 'refresh'): Promise<string> {
  const claims = await verifyToken(jwtKey, token, { kind, appId: app.appId, environment: app.environment, clockToleranceSeconds: tokenLifetimes.refresh })
  if (!claims.familyId) throw new HttpError(401, 'Invalid token')
  return claims.familyId
}

/** Ends sessions: their refresh tokens are refused from now on, and so are their wallet and access tokens. */
export async function revokeSessions(store: Store, familyIds: readonly string[]): Promise<void> {
  await revokeFamilies(store, familyIds)
}
