import type { Store } from '../../infra/database/store.ts'
// The oauth_codes table: the emulators' single-use authorisation codes, stored by hash.

/** Who signed in, as an ID token and a stored code carry it. */
export type OidcClaims = { sub: string; email: string; name: string }

export type CodeRow = { client_id: string; redirect_uri: string; nonce: string | null; claims: OidcClaims }

/**
 * Stores a code, first deleting the codes that have expired (used or not): they can never be
 * spent, so the table holds at most the codes of the last few minutes, which the per-address
 * budget of the emulators' forms bounds.
 */
export async function insertCode(
  store: Store,
  code: { hash: string; provider: string; clientId: string; redirectUri: string; nonce: string | null; claims: OidcClaims; expiresAt: string },
): Promise<void> {
  await store.query('DELETE FROM oauth_codes WHERE expires_at <= now()')
  await store.query(
    'INSERT INTO oauth_codes (code_hash, provider, client_id, redirect_uri, nonce, claims, expires_at) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)',
    [code.hash, code.provider, code.clientId, code.redirectUri, code.nonce, JSON.stringify(code.claims), code.expiresAt],
  )
}

/** Marks a live, unused code of `provider` used and answers it. */
export async function spendCode(store: Store, hash: string, provider: string): Promise<CodeRow | undefined> {
  const { rows } = await store.query<CodeRow>(
    `UPDATE oauth_codes SET used_at = now() WHERE code_hash = $1 AND provider = $2 AND used_at IS NULL AND expires_at > now()
     RETURNING client_id, redirect_uri, nonce, claims`,
    [hash, provider],
  )
  return rows[0]
}
