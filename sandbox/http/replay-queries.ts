import type { Store } from '../infra/database/store.ts'

// The seen_signatures table: which signed requests were already used (request-signatures.ts).

/** Records a signed request by its hash; false when it was recorded before. */
export async function recordSignature(store: Store, hash: string, expiresAt: string): Promise<boolean> {
  const { rowCount } = await store.query('INSERT INTO seen_signatures (signature, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [hash, expiresAt])
  return rowCount > 0
}

export async function forgetExpiredSignatures(store: Store): Promise<void> {
  await store.query('DELETE FROM seen_signatures WHERE expires_at < now()')
}
