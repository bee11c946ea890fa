import { cachedRow, type Store } from '../../infra/database/store.ts'

// The refresh_tokens table: one row per refresh token, grouped into sessions by family_id (sessions.ts).
// The app guard reads a bearer's session together with its app (app-guard.ts appAndSession).

export type RefreshRow = { id: string; family_id: string; user_id: string; used_at: Date | null; revoked_at: Date | null; expires_at: Date }

export async function insertRefreshToken(store: Store, row: { id: string; familyId: string; userId: string; expiresAt: string }): Promise<void> {
  await store.query('INSERT INTO refresh_tokens (id, family_id, user_id, expires_at) VALUES ($1, $2, $3, $4)', [
    row.id,
    row.familyId,
    row.userId,
    row.expiresAt,
  ])
}

/** Marks a live, unused refresh token used and answers its row; undefined when it is not both. */
export async function redeemRefreshToken(store: Store, id: string): Promise<RefreshRow | undefined> {
  const { rows } = await store.query<RefreshRow>(
    `UPDATE refresh_tokens SET used_at = now()
     WHERE id = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now() RETURNING *`,
    [id],
  )
  return rows[0]
}

export async function refreshTokenById(store: Store, id: string): Promise<RefreshRow | undefined> {
  const { rows } = await store.query<RefreshRow>('SELECT * FROM refresh_tokens WHERE id = $1', [id])
  return rows[0]
}

export async function revokeFamilies(store: Store, familyIds: readonly string[]): Promise<void> {
  await store.query('UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = ANY($1) AND revoked_at IS NULL', [[...familyIds]])
}

/**
 * Every API call with a wallet or access token asks this, so the answer is kept in memory until any
 * statement writes refresh_tokens (a logout or a reuse-revocation counts from the very next call; see
 * cachedRow), and for a second at most.
 */
export async function isFamilyRevoked(store: Store, familyId: string): Promise<boolean> {
  const state = await cachedRow(store, 'refresh_tokens', `revoked:${familyId}`, async () => {
    const { rows } = await store.query<{ revoked: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $1 AND revoked_at IS NOT NULL) AS revoked',
      [familyId],
    )
    return rows[0]
  })
  return state?.revoked !== false
}

/** When the session `familyId` ends: the latest expiry of its live refresh tokens (undefined when it has ended). */
export async function familyExpiry(store: Store, familyId: string): Promise<Date | undefined> {
  const { rows } = await store.query<{ expires_at: Date | null }>(
    `SELECT max(expires_at) AS expires_at FROM refresh_tokens
     WHERE family_id = $1 AND expires_at > now()
     AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = $1 AND r.revoked_at IS NOT NULL)`,
    [familyId],
  )
  return rows[0]?.expires_at ? new Date(rows[0].expires_at) : undefined
}
