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
  /** While a code is still usable, another one waits as long as the kit's resend countdown (SPEC.md section 4). */
  resendWaitMs: { email: 30_000, whatsapp: 300_000, afterResend: 300_000 },
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

  // A code that is still usable makes this a resend: allowed once the countdown is over, and it
  // replaces the old code. A used, expired or dead code does not hold up a new login.
  const live = await store.query<{ id: string; created_at: Date; is_resend: boolean }>(
    `SELECT id, created_at, is_resend FROM otp_codes WHERE app_id = $1 AND environment = $2 AND destination = $3
       AND consumed_at IS NULL AND attempts < $4 AND expires_at > now() ORDER BY created_at DESC LIMIT 1`,
    [app.appId, app.environment, destination, otpPolicy.maxAttempts],
  )
  const previous = live.rows[0]
  if (previous) {
    const wait = previous.is_resend ? otpPolicy.resendWaitMs.afterResend : otpPolicy.resendWaitMs[channel]
    const remaining = new Date(previous.created_at).getTime() + wait - Date.now()
    if (remaining > 0) {
      const seconds = Math.ceil(remaining / 1000)
      throw new HttpError(429, `Please wait ${seconds} seconds before requesting a new code`, { headers: { 'Retry-After': String(seconds) } })
    }
    await store.query('UPDATE otp_codes SET expires_at = now() WHERE id = $1', [previous.id])
  }

  const id = randomUUID()
  const verificationToken = randomBytes(32).toString('base64url')
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  await store.query(
    `INSERT INTO otp_codes (id, token_hash, app_id, environment, channel, destination, code_hash, expires_at, is_resend)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      sha256(verificationToken),
      app.appId,
      app.environment,
      channel,
      destination,
      sha256(`${id}:${code}`),
      new Date(Date.now() + otpPolicy.lifetimeMs).toISOString(),
      Boolean(previous),
    ],
  )
  return { verificationToken, code }
}

type OtpRow = { id: string; destination: string; channel: Channel; code_hash: string; attempts: number; expires_at: Date; consumed_at: Date | null }

const expired = () => new HttpError(400, 'OTP expired, request a new code')

/** Checks a code sent over `channel` and consumes it; returns who it was sent to. */
export async function verifyOtp(store: Store, app: App, channel: Channel, verificationToken: string, code: string) {
  const { rows } = await store.query<OtpRow>(
    'SELECT * FROM otp_codes WHERE token_hash = $1 AND app_id = $2 AND environment = $3 AND channel = $4',
    [sha256(verificationToken), app.appId, app.environment, channel],
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
