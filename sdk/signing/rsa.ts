import { messages } from '../errors.ts'
import { fromBase64, sha256Hex, toBase64, utf8 } from './encoding.ts'

export type RsaSignInput = {
  clientId: string
  /** PEM: PKCS#8 ('BEGIN PRIVATE KEY') or PKCS#1 ('BEGIN RSA PRIVATE KEY'). */
  privateKey: string
  method: string
  /** The request body as an object; hashed as JSON.stringify(body ?? {}). */
  body?: unknown
  /** ISO-8601 UTC; defaults to now. */
  timestamp?: string
}

export type RsaSignature = { timestamp: string; signature: string; stringToSign: string }

/**
 * The ramp service's request signature, base64 in X-SIGNATURE: RSASSA-PKCS1-v1_5 with SHA-256 over
 * clientId:timestamp (GET, DELETE) or clientId:timestamp:bodyHash (POST, PATCH, PUT).
 */
export async function signRampRequest(input: RsaSignInput): Promise<RsaSignature> {
  const timestamp = input.timestamp ?? new Date().toISOString()
  const stringToSign = await rampStringToSign(input.method, input.clientId, timestamp, input.body)
  const key = await importPrivateKey(input.privateKey)
  const signature = toBase64(await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, utf8(stringToSign)))
  return { timestamp, signature, stringToSign }
}

export async function rampStringToSign(method: string, clientId: string, timestamp: string, body: unknown): Promise<string> {
  switch (method.toUpperCase()) {
    case 'GET':
    case 'DELETE':
      return `${clientId}:${timestamp}`
    case 'POST':
    case 'PATCH':
    case 'PUT':
      return `${clientId}:${timestamp}:${await sha256Hex(JSON.stringify(body ?? {}))}`
    default:
      throw new Error(messages.methodNotAllowed)
  }
}

// Importing a key costs a few milliseconds; a back end signs with the same key all day.
const keys = new Map<string, Promise<CryptoKey>>()

function importPrivateKey(pem: string): Promise<CryptoKey> {
  let key = keys.get(pem)
  if (!key) {
    key = crypto.subtle.importKey('pkcs8', pemToPkcs8(pem), { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign'])
    key.catch(() => keys.delete(pem))
    keys.set(pem, key)
  }
  return key
}

function pemToPkcs8(pem: string): Uint8Array<ArrayBuffer> {
  const match = /-----BEGIN (RSA )?PRIVATE KEY-----([\s\S]+?)-----END \1?PRIVATE KEY-----/.exec(pem)
  if (!match) throw new Error('Invalid private key: expected a PEM PRIVATE KEY or RSA PRIVATE KEY block')
  const der = fromBase64((match[2] ?? '').replace(/\s+/g, ''))
  // WebCrypto imports PKCS#8 only; a PKCS#1 key is the same RSAPrivateKey wrapped without the algorithm header.
  return match[1] ? wrapPkcs1(der) : der
}

/** PrivateKeyInfo { version 0, AlgorithmIdentifier rsaEncryption NULL, OCTET STRING pkcs1 } in DER. */
function wrapPkcs1(pkcs1: Uint8Array): Uint8Array<ArrayBuffer> {
  const version = [0x02, 0x01, 0x00]
  const algorithm = [0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00]
  const octets = [0x04, ...derLength(pkcs1.length), ...pkcs1]
  const content = [...version, ...algorithm, ...octets]
  return new Uint8Array([0x30, ...derLength(content.length), ...content])
}

function derLength(length: number): number[] {
  if (length < 0x80) return [length]
  const bytes: number[] = []
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff)
  return [0x80 | bytes.length, ...bytes]
}
