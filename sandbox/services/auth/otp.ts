import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto'
import type { App } from '../app-config/apps.ts'
import type { Store } from '../../infra/database/store.ts'
import { HttpError } from '../../http/envelope.ts'
import type { Channel } from '../../emulators/inbox/queries.ts'
import {
  codeByToken,
  consumeCode,
  countCodesSince,
  countWrongTry,
  expireCode,
  guessWindowStart,
  insertCode,
  liveCode,
  type OtpRow,
  refundGuess,
  takeGuess,
} from './otp-queries.ts'

export const otpPolicy = {
  lifetimeMs: 5 * 60 * 1000,
  maxAttempts: 5,
  /**
   * Wrong codes one destination (e-mail address or phone number) may take in `failureWindowMs`,
   * across all its codes. Without it a guesser gets 10 codes x 5 tries every 10 minutes: ~7,200
   * guesses a day, ~19 % of the 10^6 codes in a month. At 20 a day a guesser's chance is 0.002 %
   * a day (~0.06 % a month), while a person who mistypes still has four whole codes' worth of tries.
   */
  maxFailuresPerDestination: 20,
  failureWindowMs: 24 * 60 * 60 * 1000,
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
  if ((await countCodesSince(store, app, destination, since)) >= otpPolicy.maxPerWindow) throw new HttpError(429, 'Too many codes requested, try again later')

  // A code that is still usable makes this a resend: allowed once the countdown is over, and it
  // replaces the old code. A used, expired or dead code does not hold up a new login.
  const previous = await liveCode(store, app, destination, otpPolicy.maxAttempts)
  if (previous) {
    const wait = previous.is_resend ? otpPolicy.resendWaitMs.afterResend : otpPolicy.resendWaitMs[channel]
    const remaining = new Date(previous.created_at).getTime() + wait - Date.now()
    if (remaining > 0) {
      const seconds = Math.ceil(remaining / 1000)
      throw new HttpError(429, `Please wait ${seconds} seconds before requesting a new code`, { headers: { 'Retry-After': String(seconds) } })
    }
    await expireCode(store, previous.id)
  }

  const id = randomUUID()
  const verificationToken = randomBytes(32).toString('base64url')
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0')
  await insertCode(store, app, {
    id,
    tokenHash: sha256(verificationToken),
    channel,
    destination,
    codeHash: sha256(`${id}:${code}`),
    expiresAt: new Date(Date.now() + otpPolicy.lifetimeMs).toISOString(),
    isResend: Boolean(previous),
  })
  return { verificationToken, code }
}

const expired = () => new HttpError(400, 'OTP expired, request a new code')

/** Checks a code sent over `channel` and consumes it; returns who it was sent to. */
export async function verifyOtp(store: Store, app: App, channel: Channel, verificationToken: string, code: string) {
  const row = await codeByToken(store, app, channel, sha256(verificationToken))
  if (!row) throw new HttpError(400, 'Invalid verification token')
  if (row.consumed_at || row.attempts >= otpPolicy.maxAttempts || new Date(row.expires_at).getTime() <= Date.now()) throw expired()

  // Every check is first counted against the destination's budget, and refunded if the code was
  // right: parallel guesses can never take more than the budget.
  await spendGuess(store, app, row)
  const given = Buffer.from(sha256(`${row.id}:${code}`))
  if (!/^\d{6}$/.test(code) || !timingSafeEqual(given, Buffer.from(row.code_hash))) {
    if (!(await countWrongTry(store, row.id, otpPolicy.maxAttempts))) throw expired()
    throw new HttpError(400, 'Invalid OTP')
  }
  await refundGuess(store, app, row.destination)
  if (!(await consumeCode(store, row.id, otpPolicy.maxAttempts))) throw expired()
  return { channel: row.channel, destination: row.destination }
}

/**
 * Takes one guess from the destination's budget (otpPolicy.maxFailuresPerDestination per
 * failureWindowMs, the window opening with the first guess after the last one closed), or refuses
 * with a 429 until the window closes: also a right code, also after new codes were sent.
 */
async function spendGuess(store: Store, app: App, row: Pick<OtpRow, 'destination' | 'channel'>): Promise<void> {
  if (await takeGuess(store, app, row.destination, otpPolicy.failureWindowMs / 1000, otpPolicy.maxFailuresPerDestination)) return
  const closes = new Date((await guessWindowStart(store, app, row.destination)) ?? Date.now()).getTime() + otpPolicy.failureWindowMs
  const seconds = Math.max(1, Math.ceil((closes - Date.now()) / 1000))
  const wait = seconds >= 3600 ? `${Math.ceil(seconds / 3600)} hours` : `${Math.ceil(seconds / 60)} minutes`
  const what = row.channel === 'email' ? 'this e-mail address' : 'this phone number'
  throw new HttpError(429, `Too many wrong codes for ${what}, try again in ${wait}`, { headers: { 'Retry-After': String(seconds) } })
}
