import type { Channel } from '../../emulators/inbox/queries.ts'
import type { Store } from '../../infra/database/store.ts'
import type { App } from '../app-config/apps.ts'

// The otp_codes and otp_guess_budgets tables (otp.ts holds the rules).

export type OtpRow = {
  id: string
  destination: string
  channel: Channel
  code_hash: string
  attempts: number
  expires_at: Date
  consumed_at: Date | null
  /** The client that asked for the code (its rate-limit key). */
  requester: string
}

/** Codes sent to `destination` since `since`: all of them, or those `requester` asked for. */
export async function countCodesSince(store: Store, app: App, destination: string, since: string, requester?: string): Promise<number> {
  const { rows } = await store.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM otp_codes WHERE app_id = $1 AND environment = $2 AND destination = $3 AND created_at > $4
       AND ($5::text IS NULL OR requester = $5)`,
    [app.appId, app.environment, destination, since, requester ?? null],
  )
  return rows[0]?.count ?? 0
}

/** The newest code `requester` asked for `destination` that can still be used. */
export async function liveCode(store: Store, app: App, destination: string, requester: string, maxAttempts: number) {
  const { rows } = await store.query<{ id: string; created_at: Date; is_resend: boolean }>(
    `SELECT id, created_at, is_resend FROM otp_codes WHERE app_id = $1 AND environment = $2 AND destination = $3 AND requester = $4
       AND consumed_at IS NULL AND attempts < $5 AND expires_at > now() ORDER BY created_at DESC LIMIT 1`,
    [app.appId, app.environment, destination, requester, maxAttempts],
  )
  return rows[0]
}

export async function expireCode(store: Store, id: string): Promise<void> {
  await store.query('UPDATE otp_codes SET expires_at = now() WHERE id = $1', [id])
}

export type NewCode = {
  id: string
  tokenHash: string
  channel: Channel
  destination: string
  requester: string
  codeHash: string
  expiresAt: string
  isResend: boolean
}

export async function insertCode(store: Store, app: App, code: NewCode): Promise<void> {
  await store.query(
    `INSERT INTO otp_codes (id, token_hash, app_id, environment, channel, destination, requester, code_hash, expires_at, is_resend)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [code.id, code.tokenHash, app.appId, app.environment, code.channel, code.destination, code.requester, code.codeHash, code.expiresAt, code.isResend],
  )
}

export async function codeByToken(store: Store, app: App, channel: Channel, tokenHash: string): Promise<OtpRow | undefined> {
  const { rows } = await store.query<OtpRow>('SELECT * FROM otp_codes WHERE token_hash = $1 AND app_id = $2 AND environment = $3 AND channel = $4', [
    tokenHash,
    app.appId,
    app.environment,
    channel,
  ])
  return rows[0]
}

/**
 * Takes one attempt of a live code before its check, atomically (attempts < `limit`), so parallel
 * guesses can never compare more than `limit` codes; false when the code is spent, used or expired.
 */
export async function takeAttempt(store: Store, id: string, limit: number): Promise<boolean> {
  const { rowCount } = await store.query(
    'UPDATE otp_codes SET attempts = attempts + 1 WHERE id = $1 AND attempts < $2 AND consumed_at IS NULL AND expires_at > now()',
    [id, limit],
  )
  return rowCount > 0
}

/** Marks a code used (its attempt was taken before the check); false when it was used or expired meanwhile. */
export async function consumeCode(store: Store, id: string): Promise<boolean> {
  const { rowCount } = await store.query('UPDATE otp_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL AND expires_at > now()', [id])
  return rowCount > 0
}

/**
 * Takes one guess from the budget of (destination, client) (`max` per `windowSeconds`, the window
 * opening with the first guess after the last one closed): the failures counted so far with this
 * one, or undefined (nothing counted) when the budget is spent.
 */
export async function takeGuess(store: Store, app: App, destination: string, client: string, windowSeconds: number, max: number): Promise<number | undefined> {
  const { rows } = await store.query<{ failures: number }>(
    `INSERT INTO otp_guess_budgets AS b (app_id, environment, destination, client, window_start, failures) VALUES ($1, $2, $3, $4, now(), 1)
     ON CONFLICT (app_id, environment, destination, client) DO UPDATE SET
       window_start = CASE WHEN b.window_start <= now() - $5::interval THEN now() ELSE b.window_start END,
       failures = CASE WHEN b.window_start <= now() - $5::interval THEN 1 ELSE b.failures + 1 END
     WHERE b.window_start <= now() - $5::interval OR b.failures < $6
     RETURNING failures`,
    [app.appId, app.environment, destination, client, `${windowSeconds} seconds`, max],
  )
  return rows[0]?.failures
}

export async function guessWindowStart(store: Store, app: App, destination: string, client: string): Promise<Date | undefined> {
  const { rows } = await store.query<{ window_start: Date }>(
    'SELECT window_start FROM otp_guess_budgets WHERE app_id = $1 AND environment = $2 AND destination = $3 AND client = $4',
    [app.appId, app.environment, destination, client],
  )
  return rows[0]?.window_start
}

export async function refundGuess(store: Store, app: App, destination: string, client: string): Promise<void> {
  await store.query(
    'UPDATE otp_guess_budgets SET failures = failures - 1 WHERE app_id = $1 AND environment = $2 AND destination = $3 AND client = $4 AND failures > 0',
    [app.appId, app.environment, destination, client],
  )
}
