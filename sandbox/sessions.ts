import { randomUUID } from 'node:crypto'
import type { App } from './apps.ts'
import type { Store } from './db.ts'
import { HttpError } from './envelope.ts'
import { signToken, tokenLifetimes, verifyToken } from './tokens.ts'

type RefreshRow = { id: string; family_id: string; user_id: string; used_at: Date | null; revoked_at: Date | null; expires_at: Date }

/** Issues a refresh token: a new family at login, or the next link of `familyId` on rotation. */
export async function issueRefreshToken(
  store: Store,
  jwtKey: Uint8Array,
  app: App,
  userId: string,
  options: { familyId?: string; expiresAt?: Date } = {},
): Promise<string> {
  const id = randomUUID()
  const familyId = options.familyId ?? randomUUID()
  const longest = new Date(Date.now() + tokenLifetimes.refresh * 1000)
  const expiresAt = options.expiresAt && options.expiresAt < longest ? options.expiresAt : longest
  await store.query('INSERT INTO refresh_tokens (id, family_id, user_id, expires_at) VALUES ($1, $2, $3, $4)', [
    id,
    familyId,
    userId,
    expiresAt.toISOString(),
  ])
  return signToken(jwtKey, { kind: 'refresh', userId, appId: app.appId, environment: app.environment, tokenId: id, familyId }, expiresAt)
}

/**
 * Marks a refresh token used and returns its row. Each token works once: presenting a used one
 * means it leaked (or a client raced itself), so the whole family is revoked (OAuth 2.1 §4.3.1).
 */
export async function consumeRefreshToken(store: Store, jwtKey: Uint8Array, app: App, token: string): Promise<RefreshRow> {
  const claims = await verifyToken(jwtKey, token, { kind: 'refresh', appId: app.appId, environment: app.environment })
  if (!claims.tokenId) throw new HttpError(401, 'Invalid token')
  const { rows } = await store.query<RefreshRow>(
    `UPDATE refresh_tokens SET used_at = now()
     WHERE id = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now() RETURNING *`,
    [claims.tokenId],
  )
  if (rows[0]) return rows[0]
  const existing = await store.query<RefreshRow>('SELECT * FROM refresh_tokens WHERE id = $1', [claims.tokenId])
  const row = existing.rows[0]
  if (row?.used_at && !row.revoked_at) {
    await store.query('UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL', [row.family_id])
    throw new HttpError(401, 'Refresh token reused; session revoked')
  }
  throw new HttpError(401, row?.revoked_at ? 'Session revoked' : 'Invalid token')
}
