import type { JWK } from 'jose'
import type { Store } from '../../infra/database/store.ts'

// The identity_keys table (migration 013): the identity tokens' signing keys.

/** A key as the key ring reads it: never its private half (sealedKeyOf reads that, for signing only). */
export type KeyRow = { kid: string; publicJwk: JWK; createdAt: number; activatedAt: number | null }

export async function identityKeys(store: Store): Promise<KeyRow[]> {
  const { rows } = await store.query<{ kid: string; public_jwk: JWK; created_at: Date | string; activated_at: Date | string | null }>(
    'SELECT kid, public_jwk, created_at, activated_at FROM identity_keys',
  )
  return rows.map((row) => ({
    kid: row.kid,
    publicJwk: row.public_jwk,
    createdAt: new Date(row.created_at).getTime(),
    activatedAt: row.activated_at === null ? null : new Date(row.activated_at).getTime(),
  }))
}

export async function sealedKeyOf(store: Store, kid: string): Promise<string | undefined> {
  const { rows } = await store.query<{ sealed_private_jwk: string }>('SELECT sealed_private_jwk FROM identity_keys WHERE kid = $1', [kid])
  return rows[0]?.sealed_private_jwk
}

/** A new key: the current one at once (`active`), or the next, published but not yet signing. */
export async function insertKey(store: Store, key: { kid: string; publicJwk: JWK; sealed: string; active: boolean }): Promise<void> {
  await store.query(
    `INSERT INTO identity_keys (kid, public_jwk, sealed_private_jwk, created_at, activated_at)
     VALUES ($1, $2::jsonb, $3, clock_timestamp(), CASE WHEN $4::boolean THEN clock_timestamp() END)`,
    [key.kid, JSON.stringify(key.publicJwk), key.sealed, key.active],
  )
}

/** Makes a waiting key the one that signs (the newest activated key signs). */
export async function activateKey(store: Store, kid: string): Promise<void> {
  await store.query('UPDATE identity_keys SET activated_at = clock_timestamp() WHERE kid = $1 AND activated_at IS NULL', [kid])
}

export async function deleteKeys(store: Store, kids: readonly string[]): Promise<void> {
  if (kids.length) await store.query('DELETE FROM identity_keys WHERE kid = ANY($1)', [[...kids]])
}
