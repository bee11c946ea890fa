import type { Context } from 'hono'
import { HttpError } from './envelope.ts'

export type JsonObject = Record<string, unknown>

/**
 * Reads a JSON object body. An empty body without a Content-Type counts as `{}`, so calls with only
 * optional fields may send nothing. Anything else must say application/json: a page on another
 * site can only send that type after a CORS preflight, never from a plain form or no-cors fetch.
 */
export async function readJson(c: Context): Promise<JsonObject> {
  const type = c.req.header('content-type')
  const text = await c.req.text()
  if (type === undefined && text === '') return {}
  if (!isJsonType(type)) throw new HttpError(415, 'Content-Type must be application/json')
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new HttpError(400, 'Malformed JSON body')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, 'Body must be a JSON object')
  return value as JsonObject
}

function isJsonType(type: string | undefined): boolean {
  return type?.split(';')[0]?.trim().toLowerCase() === 'application/json'
}

/** Reads an `application/x-www-form-urlencoded` (or multipart) body as string fields. */
export async function readForm(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? ''
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) throw new HttpError(400, 'Body must be form-encoded')
  let body: Record<string, unknown>
  try {
    body = await c.req.parseBody()
  } catch {
    throw new HttpError(400, 'Malformed form body')
  }
  const fields: Record<string, string> = {}
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value
  return fields
}

export function requiredString(body: JsonObject, key: string, maxLength = 2048): string {
  const value = body[key]
  if (value === undefined || value === null) throw new HttpError(400, `${key} is required`)
  if (typeof value !== 'string') throw new HttpError(400, `${key} must be a string`)
  if (value.length === 0) throw new HttpError(400, `${key} is required`)
  if (value.length > maxLength) throw new HttpError(400, `${key} is too long`)
  return value
}

/** A date given as an ISO-8601 string or epoch milliseconds. */
export function optionalDate(body: JsonObject, key: string): Date | undefined {
  const value = body[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' && typeof value !== 'number') throw new HttpError(400, `${key} must be a date`)
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) throw new HttpError(400, `${key} must be a date`)
  return date
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** SPEC.md section 5's e-mail rule, lower-cased so one mailbox is one user. */
export function parseEmail(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const email = value.trim().toLowerCase()
  if (email.length > 254 || !emailPattern.test(email)) return undefined
  return email
}

/** Refuses fields the call does not define, so a client typo fails loudly instead of being ignored. */
export function onlyFields(body: JsonObject, allowed: readonly string[], where = 'body'): void {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key))
  if (unknown.length) throw new HttpError(400, `Unknown field${unknown.length > 1 ? 's' : ''} in ${where}: ${unknown.join(', ')}`)
}
