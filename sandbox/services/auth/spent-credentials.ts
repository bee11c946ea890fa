import { createHash } from 'node:crypto'
import type { Store } from '../../infra/database/store.ts'
import { recordSignature } from '../../http/replay-queries.ts'

/**
 * Marks a sign-in credential (an ID token sent as `credential`) as used until it expires; false when
 * it was used before. A captured token is then worth nothing once its owner has signed in with it.
 * Kept in the table of seen request signatures, under a prefix of its own and by hash only.
 */
export function spendCredential(store: Store, kind: string, credential: string, expiresAt: Date): Promise<boolean> {
  const hash = createHash('sha256').update(credential).digest('base64url')
  return recordSignature(store, `credential:${kind}:${hash}`, expiresAt.toISOString())
}
