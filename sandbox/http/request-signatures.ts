import { createHash, createHmac, createPublicKey, timingSafeEqual, verify as verifySignature } from 'node:crypto'
import type { Store } from '../infra/database/store.ts'
import { HttpError } from './exchange.ts'
import { forgetExpiredSignatures, recordSignature } from './replay-queries.ts'

// Server side of the two request signatures sdk/ computes: the smart-account HMAC-SHA256 (key: the
// app's client secret) and the ramp RSA-SHA256 signature (the client's registered public key). Both carry X-TIMESTAMP; a timestamp more than 5 minutes from our clock, or a
// request already seen within that window, is refused. A signature is accepted only in canonical
// base64, so one request has exactly one signature text.

export const signatureWindowMs = 5 * 60 * 1000

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex')
const unauthorized = (message: string) => new HttpError(401, message)

/** The timestamp as a time, or a 401 when it is not ISO-8601 or outside the window. */
export function checkTimestamp(timestamp: string | undefined, now = Date.now()): number {
  if (!timestamp) throw unauthorized('X-TIMESTAMP is required')
  const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(timestamp) ? Date.parse(timestamp) : Number.NaN
  if (Number.isNaN(time)) throw unauthorized('X-TIMESTAMP must be an ISO-8601 time')
  if (Math.abs(now - time) > signatureWindowMs) throw unauthorized('Request timestamp is outside the 5-minute window')
  return time
}

/** sha256 of the minified JSON body, '' for an empty one (the smart-account rule). */
export function smartAccountBodyHash(body: string): string {
  if (body === '') return ''
  try {
    return sha256Hex(JSON.stringify(JSON.parse(body)))
  } catch (error) {
    throw new HttpError(400, `Invalid JSON input: ${error instanceof Error ? error.message : String(error)}`)
  }
}

export function smartAccountStringToSign(method: string, path: string, body: string, timestamp: string): string {
  return `${method.toUpperCase()}:${path}:${smartAccountBodyHash(body)}:${timestamp}`
}

/**
 * The bytes of `text` if it is canonical base64 (the standard alphabet, padded, no whitespace, no
 * unused bits set), else undefined. Buffer.from(text, 'base64') also takes base64url, missing
 * padding, whitespace and anything after '=': each would be another spelling of one signature.
 */
export function canonicalBase64(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64')
  return bytes.length > 0 && bytes.toString('base64') === text ? bytes : undefined
}

/** Whether `signature` (base64) is the HMAC-SHA256 of the string to sign under one of the secrets. */
export function hmacMatches(secret: string, stringToSign: string, signature: string): boolean {
  const expected = createHmac('sha256', secret).update(stringToSign).digest()
  const given = canonicalBase64(signature)
  return given !== undefined && given.length === expected.length && timingSafeEqual(given, expected)
}

/** The ramp string to sign; the body hash covers JSON.stringify(body ?? {}). */
export function rampStringToSign(method: string, clientId: string, timestamp: string, body: string): string {
  switch (method.toUpperCase()) {
    case 'GET':
    case 'DELETE':
      return `${clientId}:${timestamp}`
    case 'POST':
    case 'PATCH':
    case 'PUT': {
      let value: unknown = {}
      try {
        value = body === '' ? {} : JSON.parse(body)
      } catch (error) {
        throw new HttpError(400, `Invalid JSON input: ${error instanceof Error ? error.message : String(error)}`)
      }
      return `${clientId}:${timestamp}:${sha256Hex(JSON.stringify(value ?? {}))}`
    }
    default:
      throw new HttpError(405, 'method not allowed')
  }
}

/** RSASSA-PKCS1-v1_5 / SHA-256 over the string to sign, with the client's registered public key (PEM). */
export function rsaMatches(publicKeyPem: string, stringToSign: string, signature: string): boolean {
  const given = canonicalBase64(signature)
  if (!given) return false
  try {
    return verifySignature('sha256', Buffer.from(stringToSign), createPublicKey(publicKeyPem), given)
  } catch {
    return false
  }
}

/** Remembers the signed requests one sandbox has accepted. */
export type ReplayGuard = {
  /**
   * Records a signed request as used; a second use within its window is a replay (401). Keyed on what
   * was signed (who signed it and the string to sign), never on the signature's text: the same request
   * under another spelling of its signature is the same request. A ramp GET or DELETE signs only
   * `clientId:timestamp`, so that pair works once, whatever the path.
   */
  reject(signer: string, stringToSign: string, timestamp: number): Promise<void>
}

export function createReplayGuard(store: Store): ReplayGuard {
  let inserts = 0
  return {
    async reject(signer, stringToSign, timestamp) {
      const expiresAt = new Date(timestamp + signatureWindowMs + 60_000).toISOString()
      if (!(await recordSignature(store, sha256Hex(`${signer}\u0000${stringToSign}`), expiresAt))) throw unauthorized('Replayed request signature')
      // Expired entries are swept now and then, not on every request.
      if (++inserts % 100 === 0) await forgetExpiredSignatures(store)
    },
  }
}
