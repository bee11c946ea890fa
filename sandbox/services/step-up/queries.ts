import type { Store } from '../../infra/database/store.ts'
import type { App } from '../app-config/apps.ts'

// The step_up_challenges and step_up_proofs tables (step-up.ts holds the rules), and the one read of
// the users table the factors need.

/** Who a challenge or a proof is for, and what it authorises. */
export type Binding = { userId: string; familyId: string; action: string; requestHash: string | null }

export type ChallengeRow = {
  user_id: string
  family_id: string
  action: string
  request_hash: string | null
  factor: string
  sealed_state: string
}

export type ProofRow = ChallengeRow & { used_at: Date | null; expires_at: Date; revoked: boolean }

/** The contact details a factor may reach the user by. */
export async function contactOf(store: Store, userId: string): Promise<{ email: string | null; phone: string | null } | undefined> {
  const { rows } = await store.query<{ email: string | null; phone: string | null }>('SELECT email, phone FROM users WHERE id = $1', [userId])
  return rows[0]
}

/** Rows whose time is long over go first (an hour after their expiry), so the tables hold about an hour's worth. */
async function sweep(store: Store, table: 'step_up_challenges' | 'step_up_proofs'): Promise<void> {
  await store.query(`DELETE FROM ${table} WHERE expires_at < now() - interval '1 hour'`)
}

export async function insertChallenge(
  store: Store,
  app: App,
  row: Binding & { idHash: string; factor: string; sealedState: string; expiresAt: string },
): Promise<void> {
  await sweep(store, 'step_up_challenges')
  await store.query(
    `INSERT INTO step_up_challenges (id_hash, app_id, environment, user_id, family_id, action, request_hash, factor, sealed_state, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [row.idHash, app.appId, app.environment, row.userId, row.familyId, row.action, row.requestHash, row.factor, row.sealedState, row.expiresAt],
  )
}

/** A live challenge of this app by its id's hash. */
export async function liveChallenge(store: Store, app: App, idHash: string): Promise<ChallengeRow | undefined> {
  const { rows } = await store.query<ChallengeRow>(
    `SELECT user_id, family_id, action, request_hash, factor, sealed_state FROM step_up_challenges
     WHERE id_hash = $1 AND app_id = $2 AND environment = $3 AND expires_at > now()`,
    [idHash, app.appId, app.environment],
  )
  return rows[0]
}

/** Ends a challenge once passed; false when it had ended already (a parallel check won). */
export async function endChallenge(store: Store, idHash: string): Promise<boolean> {
  const { rowCount } = await store.query('DELETE FROM step_up_challenges WHERE id_hash = $1', [idHash])
  return rowCount > 0
}

export async function insertProof(store: Store, app: App, row: Binding & { proofHash: string; factor: string; expiresAt: string }): Promise<void> {
  await sweep(store, 'step_up_proofs')
  await store.query(
    `INSERT INTO step_up_proofs (proof_hash, app_id, environment, user_id, family_id, action, request_hash, factor, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [row.proofHash, app.appId, app.environment, row.userId, row.familyId, row.action, row.requestHash, row.factor, row.expiresAt],
  )
}

/**
 * Marks a proof used, in one statement, only when every binding holds: this app, unused, unexpired,
 * the user, the session, the action, the request hash, and a session that has not been ended. Two
 * parallel uses of one proof: one statement updates the row, the other finds it used.
 */
export async function takeProof(store: Store, app: App, proofHash: string, want: Binding): Promise<boolean> {
  const { rowCount } = await store.query(
    `UPDATE step_up_proofs SET used_at = now()
     WHERE proof_hash = $1 AND app_id = $2 AND environment = $3 AND used_at IS NULL AND expires_at > now()
       AND user_id = $4 AND family_id = $5 AND action = $6 AND request_hash IS NOT DISTINCT FROM $7
       AND NOT EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $5 AND revoked_at IS NOT NULL)`,
    [proofHash, app.appId, app.environment, want.userId, want.familyId, want.action, want.requestHash],
  )
  return rowCount > 0
}

/** A proof of this app as it stands, to say why it was refused. */
export async function proofByHash(store: Store, app: App, proofHash: string): Promise<ProofRow | undefined> {
  const { rows } = await store.query<ProofRow>(
    `SELECT user_id, family_id, action, request_hash, factor, '' AS sealed_state, used_at, expires_at,
       EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.family_id = p.family_id AND r.revoked_at IS NOT NULL) AS revoked
     FROM step_up_proofs p WHERE proof_hash = $1 AND app_id = $2 AND environment = $3`,
    [proofHash, app.appId, app.environment],
  )
  return rows[0]
}
