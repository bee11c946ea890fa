import { sha256Hex, toBase64, utf8 } from './encoding.ts'

/** The path prefix every smart-account string-to-sign uses, whatever host the service sits on. */
const smartAccountPathPrefix = '/api/v1'

/**
 * bodyHash of a smart-account request, as the service recomputes it: lowercase hex SHA-256 of the minified JSON,
 * '' for an empty body. Minifying (parse, then stringify) makes the hash independent of whitespace.
 */
export async function smartAccountBodyHash(body: string | undefined): Promise<string> {
  if (body === undefined || body === '') return ''
  let minified: string
  try {
    minified = JSON.stringify(JSON.parse(body))
  } catch (error) {
    throw new Error(`Invalid JSON input: ${error instanceof Error ? error.message : String(error)}`)
  }
  return sha256Hex(minified)
}

export type HmacSignInput = {
  clientSecret: string
  method: string
  /** Path below the service base, e.g. '/smart-account'; '/api/v1' is prefixed here. */
  path: string
  body: string | undefined
  /** ISO-8601 UTC; defaults to now. */
  timestamp?: string
}

export type HmacSignature = { timestamp: string; signature: string; stringToSign: string }

/** METHOD:/api/v1<path>:bodyHash:timestamp, HMAC-SHA256 keyed by the client secret, base64. */
export async function signSmartAccountRequest(input: HmacSignInput): Promise<HmacSignature> {
  const timestamp = input.timestamp ?? new Date().toISOString()
  const bodyHash = await smartAccountBodyHash(input.body)
  const stringToSign = `${input.method.toUpperCase()}:${smartAccountPathPrefix}${input.path}:${bodyHash}:${timestamp}`
  const key = await crypto.subtle.importKey('raw', utf8(input.clientSecret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const signature = toBase64(await crypto.subtle.sign('HMAC', key, utf8(stringToSign)))
  return { timestamp, signature, stringToSign }
}
