import type { Store } from '../../infra/database/store.ts'

// The passkey tables (migration 015): credentials and the challenges handed out for them; and when a
// session signed in (session_sign_ins), for the step-up rule of users no second factor can reach.

export type Purpose = 'register' | 'sign-in' | 'step-up'
type AppRef = { appId: string; environment: string }

export type StoredPasskey = {
  id: string
  userId: string
  /** The COSE public key, base64url. */
  publicKey: string
  counter: number
  transports: string[]
  name: string
  backedUp: boolean
  createdAt: string
  lastUsedAt: string | null
}

type Row = {
  credential_id: string
  user_id: string
  public_key: string
  counter: string | number
  transports: string[]
  name: string
  backed_up: boolean
  created_at: Date | string
  last_used_at: Date | string | null
}

const columns = 'credential_id, user_id, public_key, counter, transports, name, backed_up, created_at, last_used_at'

const toPasskey = (row: Row): StoredPasskey => ({
  id: row.credential_id,
  userId: row.user_id,
  publicKey: row.public_key,
  counter: Number(row.counter),
  transports: row.transports,
  name: row.name,
  backedUp: row.backed_up,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at).toISOString(),
})

/** Stores a challenge valid for `seconds`, and drops the expired ones (nobody can use them any more). */
export async function insertChallenge(store: Store, app: AppRef, challenge: { value: string; purpose: Purpose; userId?: string; seconds: number }) {
  await store.query('DELETE FROM passkey_challenges WHERE expires_at < clock_timestamp()')
  await store.query(
    `INSERT INTO passkey_challenges (challenge, app_id, environment, purpose, user_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, clock_timestamp() + make_interval(secs => $6))`,
    [challenge.value, app.appId, app.environment, challenge.purpose, challenge.userId ?? null, challenge.seconds],
  )
  // A user's pending challenges of one purpose are few (a page left open, a retry): the oldest beyond
  // them go. Counted per purpose: step-up starts need only the wallet token, so a thief's run of them
  // must not push out the owner's pending registration (nor the reverse).
  if (challenge.userId)
    await store.query(
      `DELETE FROM passkey_challenges WHERE user_id = $1 AND purpose = $3 AND challenge IN (
         SELECT challenge FROM passkey_challenges WHERE user_id = $1 AND purpose = $3 ORDER BY expires_at DESC OFFSET $2)`,
      [challenge.userId, pendingPerUser, challenge.purpose],
    )
}

/** Challenges of one purpose one user may hold at once. */
export const pendingPerUser = 5

/**
 * Takes a challenge out, in one statement, so two responses naming it cannot both have it: true when
 * it was this app's, of this purpose (and user), and not expired. A challenge is gone once named,
 * whatever the response then turns out to be.
 */
export async function consumeChallenge(store: Store, app: AppRef, challenge: { value: string; purpose: Purpose; userId?: string }): Promise<boolean> {
  const { rows } = await store.query<{ live: boolean }>(
    `DELETE FROM passkey_challenges
     WHERE challenge = $1 AND app_id = $2 AND environment = $3 AND purpose = $4 AND user_id IS NOT DISTINCT FROM $5
     RETURNING expires_at > clock_timestamp() AS live`,
    [challenge.value, app.appId, app.environment, challenge.purpose, challenge.userId ?? null],
  )
  return rows[0]?.live === true
}

/** Stores a credential unless its id is taken or its user already holds `maxPerUser` (one statement). */
export async function insertPasskey(
  store: Store,
  app: AppRef,
  passkey: Pick<StoredPasskey, 'id' | 'userId' | 'publicKey' | 'counter' | 'transports' | 'name' | 'backedUp'>,
  maxPerUser: number,
): Promise<boolean> {
  const { rows } = await store.query<{ credential_id: string }>(
    `INSERT INTO passkey_credentials (credential_id, app_id, environment, user_id, public_key, counter, transports, name, backed_up)
     SELECT $1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9
     WHERE (SELECT count(*) FROM passkey_credentials WHERE user_id = $4) < $10
     ON CONFLICT (credential_id) DO NOTHING RETURNING credential_id`,
    [
      passkey.id,
      app.appId,
      app.environment,
      passkey.userId,
      passkey.publicKey,
      passkey.counter,
      JSON.stringify(passkey.transports),
      passkey.name,
      passkey.backedUp,
      maxPerUser,
    ],
  )
  return rows.length === 1
}

/** A credential of this app, by its id. */
export async function findPasskey(store: Store, app: AppRef, id: string): Promise<StoredPasskey | undefined> {
  const { rows } = await store.query<Row>(`SELECT ${columns} FROM passkey_credentials WHERE credential_id = $1 AND app_id = $2 AND environment = $3`, [
    id,
    app.appId,
    app.environment,
  ])
  return rows[0] && toPasskey(rows[0])
}

export async function passkeysOf(store: Store, userId: string): Promise<StoredPasskey[]> {
  const { rows } = await store.query<Row>(`SELECT ${columns} FROM passkey_credentials WHERE user_id = $1 ORDER BY created_at, credential_id`, [userId])
  return rows.map(toPasskey)
}

export async function countPasskeys(store: Store, userId: string): Promise<number> {
  const { rows } = await store.query<{ n: string | number }>('SELECT count(*) AS n FROM passkey_credentials WHERE user_id = $1', [userId])
  return Number(rows[0]?.n ?? 0)
}

/**
 * Records a use: the new counter, only if the stored one is still the one the response was checked
 * against (two uses racing each other cannot both pass) and the credential still exists.
 */
export async function recordUse(store: Store, id: string, seen: number, next: number): Promise<boolean> {
  const { rows } = await store.query<{ credential_id: string }>(
    'UPDATE passkey_credentials SET counter = $3, last_used_at = clock_timestamp() WHERE credential_id = $1 AND counter = $2 RETURNING credential_id',
    [id, seen, next],
  )
  return rows.length === 1
}

export async function deletePasskey(store: Store, userId: string, id: string): Promise<boolean> {
  const { rows } = await store.query<{ credential_id: string }>(
    'DELETE FROM passkey_credentials WHERE credential_id = $1 AND user_id = $2 RETURNING credential_id',
    [id, userId],
  )
  return rows.length === 1
}

/** What the authenticator shows as the account's name: its e-mail, phone number or wallet address. */
export async function accountNameOf(store: Store, userId: string): Promise<string> {
  const { rows } = await store.query<{ email: string | null; phone: string | null; address: string | null }>(
    'SELECT u.email, u.phone, w.address FROM users u LEFT JOIN wallets w ON w.user_id = u.id WHERE u.id = $1',
    [userId],
  )
  const row = rows[0]
  return row?.email ?? (row?.phone ? `+${row.phone}` : undefined) ?? row?.address ?? userId
}

/** Whether session `familyId` signed in less than `seconds` ago (a session with no recorded sign-in did not). */
export async function signedInWithin(store: Store, familyId: string, seconds: number): Promise<boolean> {
  const { rows } = await store.query<{ fresh: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM session_sign_ins WHERE family_id = $1 AND created_at > clock_timestamp() - make_interval(secs => $2)) AS fresh',
    [familyId, seconds],
  )
  return rows[0]?.fresh === true
}
