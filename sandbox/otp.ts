import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto'
import type { App } from './apps.ts'
import type { Store } from './db.ts'
import { HttpError } from './envelope.ts'
import type { Channel } from './inbox.ts'

export const otpPolicy = {
  lifetimeMs: 5 * 60 * 1000,
  maxAttempts: 5,
  /** Codes one destination may request per window: stops the sandbox from being used to spam a mailbox. */
  maxPerWindow: 10,
  windowMs: 10 * 60 * 1000,
} as const

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** Creates a 6-digit code; returns the code (for the inbox) and the opaque verification token (for the caller). */
export async function createOtp(store: Store, app: App, channel: Channel, destination: string) {
  const since = new Date(Date.now() - otpPolicy.windowMs).toISOString()
  const { rows } = await store.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM otp_codes WHERE app_id = $1 AND environment = $2 AND destination = $3 AND created_at > $4',
    [app.appId, app.environment, destination, since],
  )
  if ((rows[0]?.count ?? 0) >= otpPolicy.maxPerWindow) throw new HttpError(429, 'Too many codes requested, try again later')

  const id = randomUUID()
  const verificationToken = randomBytes(32).toString('base64url')
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  await store.query(
    `INSERT INTO otp_codes (id, token_hash, app_id, environment, channel, destination, code_hash, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [id, sha256(verificationToken), app.appId, app.environment, channel, destination, sha256(`${id}:${code}`), new Date(Date.now() + otpPolicy.lifetimeMs).toISOString()],
  )
  return { verificationToken, code }
}

type OtpRow = { id: string; destination: string; channel: Channel; code_hash: string; attempts: number; expires_at: Date; consumed_at: Date | null }

const expired = () => new HttpError(400, 'OTP expired, request a new code')

/** Checks a code and consumes it; returns who it was sent to. */
export async function verifyOtp(store: Store, app: App, verificationToken: string, code: string) {
  const { rows } = await store.query<OtpRow>(
    'SELECT * FROM otp_codes WHERE token_hash = $1 AND app_id = $2 AND environment = $3',
    [sha256(verificationToken), app.appId, app.environment],
  )
  const row = rows[0]
  if (!row) throw new HttpError(400, 'Invalid verification token')
  if (row.consumed_at || row.attempts >= otpPolicy.maxAttempts || new Date(row.expires_at).getTime() <= Date.now()) throw expired()

  const given = Buffer.from(sha256(`${row.id}:${code}`))
  if (!/^\d{6}$/.test(code) || !timingSafeEqual(given, Buffer.from(row.code_hash))) {
    // Counted atomically, so parallel guesses cannot exceed the limit.
    const counted = await store.query('UPDATE otp_codes SET attempts = attempts + 1 WHERE id = $1 AND attempts < $2 AND consumed_at IS NULL', [
      row.id,
      otpPolicy.maxAttempts,
    ])
    if (counted.rowCount === 0) throw expired()
    throw new HttpError(400, 'Invalid OTP')
  }
  const consumed = await store.query(
    'UPDATE otp_codes SET consumed_at = now() WHERE id = $1 AND consumed_at IS NULL AND attempts < $2 AND expires_at > now()',
    [row.id, otpPolicy.maxAttempts],
  )
  if (consumed.rowCount === 0) throw expired()
  return { channel: row.channel, destination: row.destination }
}
