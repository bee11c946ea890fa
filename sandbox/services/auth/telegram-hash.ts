import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { HttpError, type JsonObject } from '../../http/exchange.ts'

// Telegram Login Widget data (https://core.telegram.org/widgets/login#checking-authorization):
// hash = hex HMAC-SHA-256 of the data-check-string (every field but `hash`, sorted by name,
// `key=value` joined by "\n"), keyed by SHA-256 of the bot token.

export const telegramFields = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash'] as const

/** How old an auth_date may be (one day), and how far ahead of our clock (a minute of skew). */
export const telegramMaxAgeSeconds = 24 * 60 * 60
const maxSkewSeconds = 60

export type TelegramAuth = Record<string, string>

export function telegramHash(botToken: string, data: TelegramAuth): string {
  const checkString = Object.keys(data)
    .filter((key) => key !== 'hash')
    .sort()
    .map((key) => `${key}=${data[key]}`)
    .join('\n')
  const secret = createHash('sha256').update(botToken).digest()
  return createHmac('sha256', secret).update(checkString).digest('hex')
}

/** Reads the widget's fields from a request body; numbers (id, auth_date) may come as JSON numbers. */
export function readTelegramAuth(body: JsonObject): TelegramAuth {
  const data: TelegramAuth = {}
  for (const key of telegramFields) {
    const value = body[key]
    if (value === undefined || value === null) continue
    if (typeof value === 'number' && Number.isSafeInteger(value)) data[key] = String(value)
    else if (typeof value === 'string' && value.length <= 512) data[key] = value
    else throw new HttpError(400, `${key} must be a string`)
  }
  if (!data.id || !/^[1-9]\d{0,15}$/.test(data.id)) throw new HttpError(400, 'id must be a Telegram user id')
  if (!data.auth_date || !/^\d{1,12}$/.test(data.auth_date)) throw new HttpError(400, 'auth_date must be a Unix time')
  if (!data.hash || !/^[0-9a-f]{64}$/.test(data.hash)) throw new HttpError(400, 'hash must be 64 hex characters')
  return data
}

/** Checks the hash with the app's bot token and the auth_date's age. */
export function verifyTelegramAuth(botToken: string, data: TelegramAuth, now = Date.now()): void {
  const expected = Buffer.from(telegramHash(botToken, data), 'hex')
  const given = Buffer.from(data.hash ?? '', 'hex')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new HttpError(401, 'Invalid Telegram login hash')
  const age = Math.floor(now / 1000) - Number(data.auth_date)
  if (age > telegramMaxAgeSeconds) throw new HttpError(401, 'Telegram login expired, sign in again')
  if (age < -maxSkewSeconds) throw new HttpError(401, 'Telegram auth_date is in the future')
}
