import { createHash, randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto'
import type { App } from '../app-config/apps.ts'
import type { Store } from '../../infra/database/store.ts'
import { HttpError } from '../../http/exchange.ts'
import type { Channel } from '../../emulators/inbox/queries.ts'
import {
  codeByToken,
  consumeCode,
  countCodesSince,
  expireCode,
  guessWindowStart,
  insertCode,
  liveCode,
  type OtpRow,
  refundGuess,
  takeAttempt,
  takeGuess,
} from './otp-queries.ts'

/** A code that is not the one sent: the one answer a caller may read as "try another code" (the challenge stays). */
export const wrongCode = 'Invalid OTP'

// A code can be checked only with the verification token its request answered, so whoever guesses
// a code is the client that asked for it (its requester, keyed as the per-IP limits key addresses).
// Budgets that protect an address are kept per (address, requesting client): a budget per address
// alone was a switch anyone could flip with ~24 requests to lock its owner out of code login for a
// day. The owner, asking from their own address, gets a code of their own that works.

export const otpPolicy = {
  lifetimeMs: 5 * 60 * 1000,
  /** Checks one code takes, taken before each check so parallel guesses get no more. */
  maxAttempts: 5,
  /**
   * Wrong codes one client may try against one destination (e-mail address or phone number) in
   * `failureWindowMs`, across all the codes it asks for. Without it a guesser gets 10 codes x 5
   * tries every 10 minutes: ~7,200 guesses a day, ~19 % of the 10^6 codes in a month. At 20 a day
   * a guesser's chance is 0.002 % a day (~0.06 % a month), while a person who mistypes still has
   * four whole codes' worth of tries. Spent, that client's checks for the destination are 429 (the
   * right code too); other clients' are not.
   */
  maxFailuresPerClient: 20,
  /**
   * Wrong codes one destination may take from all clients together in the window before each of
   * its codes takes a single attempt (a guesser with many addresses then gets one guess per code,
   * and codes are limited per destination: below). It refuses no one, so it is no switch either.
   */
  failuresBeforeOneAttempt: 100,
  failureWindowMs: 24 * 60 * 60 * 1000,
  /**
   * Codes one client may ask for one destination per window, and all clients together: stops the
   * sandbox from being used to spam a mailbox, and bounds the codes a guesser can try.
   */
  maxPerWindow: 10,
  maxPerWindowAllClients: 50,
  windowMs: 10 * 60 * 1000,
  /** While a code is still usable, another one waits as long as the kit's resend countdown (300 s after a resend). */
  resendWaitMs: { email: 30_000, whatsapp: 300_000, afterResend: 300_000 },
} as const

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** The key of the tally over all clients in otp_guess_budgets (no client key is '*'). */
const allClients = '*'

/**
 * Creates a 6-digit code for `requester` (the asking client's rate-limit key); returns the code (for
 * the inbox) and the opaque verification token (for the caller).
 */
export async function createOtp(store: Store, app: App, channel: Channel, destination: string, requester: string) {
  const since = new Date(Date.now() - otpPolicy.windowMs).toISOString()
  if (
    (await countCodesSince(store, app, destination, since, requester)) >= otpPolicy.maxPerWindow ||
    (await countCodesSince(store, app, destination, since)) >= otpPolicy.maxPerWindowAllClients
  )
    throw new HttpError(429, 'Too many codes requested, try again later')

  // The requester's code that is still usable makes this a resend: allowed once the countdown is
  // over, and it replaces that code. A used, expired or dead code does not hold up a new login, nor
  // does another client's code (someone else asking for codes must not hold up or kill the owner's).
  const previous = await liveCode(store, app, destination, requester, otpPolicy.maxAttempts)
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
    requester,
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

  // Every check is first counted against the requester's budget and the destination's tally, and
  // takes one attempt of the code; the budgets are refunded if the code was right (or not checked):
  // parallel guesses can never take more than the budget, nor a code more than its attempts.
  await spendGuess(store, app, row)
  const tally = (await takeGuess(store, app, row.destination, allClients, otpPolicy.failureWindowMs / 1000, 2 ** 31 - 1)) ?? 0
  const refund = async () => {
    await refundGuess(store, app, row.destination, row.requester)
    await refundGuess(store, app, row.destination, allClients)
  }
  const attempts = tally > otpPolicy.failuresBeforeOneAttempt ? 1 : otpPolicy.maxAttempts
  if (!(await takeAttempt(store, row.id, attempts))) {
    await refund()
    throw expired()
  }
  const given = Buffer.from(sha256(`${row.id}:${code}`))
  if (!/^\d{6}$/.test(code) || !timingSafeEqual(given, Buffer.from(row.code_hash))) throw new HttpError(400, wrongCode)
  await refund()
  if (!(await consumeCode(store, row.id))) throw expired()
  return { channel: row.channel, destination: row.destination }
}

/**
 * Takes one guess from the budget of the code's requester for its destination
 * (otpPolicy.maxFailuresPerClient per failureWindowMs, the window opening with the first guess
 * after the last one closed), or refuses with a 429 until the window closes: also a right code,
 * also after new codes were sent. Other clients' codes for the destination are not held up.
 */
async function spendGuess(store: Store, app: App, row: Pick<OtpRow, 'destination' | 'channel' | 'requester'>): Promise<void> {
  if ((await takeGuess(store, app, row.destination, row.requester, otpPolicy.failureWindowMs / 1000, otpPolicy.maxFailuresPerClient)) !== undefined) return
  const closes = new Date((await guessWindowStart(store, app, row.destination, row.requester)) ?? Date.now()).getTime() + otpPolicy.failureWindowMs
  const seconds = Math.max(1, Math.ceil((closes - Date.now()) / 1000))
  const wait = seconds >= 3600 ? `${Math.ceil(seconds / 3600)} hours` : `${Math.ceil(seconds / 60)} minutes`
  const what = row.channel === 'email' ? 'this e-mail address' : 'this phone number'
  throw new HttpError(429, `Too many wrong codes for ${what}, try again in ${wait}`, { headers: { 'Retry-After': String(seconds) } })
}
