import { generateKeyPairSync } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { signRampRequest, signSmartAccountRequest } from '../sdk/index.ts'
import { readSeed } from './services/app-config/apps.ts'
import { upsertApp } from './services/app-config/queries.ts'
import { canonicalBase64 } from './http/request-signatures.ts'
import { startTestSandbox, type TestSandbox } from './sandbox.fixture.ts'

// Replay by re-encoding: base64 has many spellings of the same bytes, and a lenient decoder takes
// them all. Each spelling of one signed request must not count as a new request.

let sandbox: TestSandbox
const ramp = generateKeyPairSync('rsa', { modulusLength: 2048 })
const rampPrivateKey = ramp.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()

beforeAll(async () => {
  sandbox = await startTestSandbox()
  const demo = readSeed().find((seed) => seed.appId === 'demo')!
  await upsertApp(sandbox.store, {
    ...demo,
    appId: 'signed',
    clientSecret: 'signed-app-secret',
    settings: { ...demo.settings, isAAEnabled: true },
    secrets: { rampClientId: 'signed-client', rampPublicKey: ramp.publicKey.export({ type: 'spki', format: 'pem' }).toString() },
  })
})
afterAll(() => sandbox?.dispose())

/** The same bytes spelled differently; base64url only differs when the signature holds + or /. */
const reEncodings = (signature: string): [string, string][] => [
  ['without padding', signature.replace(/=+$/, '')],
  ['with characters after the padding', `${signature}AA`],
  ['with another padding character', `${signature}=`],
  ['in the base64url alphabet', signature.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')],
  ['with a space inside', `${signature.slice(0, 10)} ${signature.slice(10)}`],
  ['with a tab inside', `${signature.slice(0, 20)}\t${signature.slice(20)}`],
]

describe('canonicalBase64', () => {
  test('takes only the one spelling Buffer itself writes', () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xbf, 0x01, 0x02])
    const canonical = bytes.toString('base64')
    expect(canonical).toBe('+/+/AQI=')
    expect(canonicalBase64(canonical)).toEqual(bytes)
    for (const [, variant] of reEncodings(canonical)) expect(canonicalBase64(variant)).toBeUndefined()
    // Unused low bits set in the last character: the same bytes, another spelling.
    expect(canonicalBase64('+/+/AQJ=')).toBeUndefined()
    expect(canonicalBase64('')).toBeUndefined()
  })
})

describe('smart-account HMAC', () => {
  const path = '/smart-account/balance/native'
  const body = JSON.stringify({ accountId: 'a' })
  const send = (headers: Record<string, string>) =>
    sandbox.call(`/api/v1${path}`, { method: 'POST', app: 'signed', body, headers: { 'content-type': 'application/json', ...headers } })

  /** A signature holding + or /, so that its base64url spelling differs. */
  async function signedWithBothAlphabets() {
    for (let offset = 0; ; offset++) {
      const timestamp = new Date(Date.now() - offset).toISOString()
      const signed = await signSmartAccountRequest({ clientSecret: 'signed-app-secret', method: 'POST', path, body, timestamp })
      if (/[+/]/.test(signed.signature)) return signed
    }
  }

  test('one signed request is accepted once, whichever way its signature is re-encoded', async () => {
    const signed = await signedWithBothAlphabets()
    const first = await send({ 'x-timestamp': signed.timestamp, 'x-signature': signed.signature })
    // Authenticated: the service itself answers (no such account).
    expect(first.body.message).toBe('Smart account not found')
    for (const [how, variant] of reEncodings(signed.signature)) {
      const replay = await send({ 'x-timestamp': signed.timestamp, 'x-signature': variant })
      expect({ how, status: replay.status, message: replay.body.message }).toEqual({ how, status: 401, message: 'Invalid request signature' })
    }
    const again = await send({ 'x-timestamp': signed.timestamp, 'x-signature': signed.signature })
    expect(again.body).toEqual({ status: 401, message: 'Replayed request signature', data: null })
  })

  test('a re-encoded signature is refused even before the canonical one was used', async () => {
    const signed = await signedWithBothAlphabets()
    const [, unpadded] = reEncodings(signed.signature)[0]!
    expect((await send({ 'x-timestamp': signed.timestamp, 'x-signature': unpadded })).body.message).toBe('Invalid request signature')
    expect((await send({ 'x-timestamp': signed.timestamp, 'x-signature': signed.signature })).body.message).toBe('Smart account not found')
  })
})

describe('ramp RSA', () => {
  const get = (path: string, headers: Record<string, string>, method = 'GET') =>
    sandbox.call(path, { method, app: null, headers: { 'x-client-id': 'signed-client', ...headers } })

  test('one signed GET is accepted once, whichever way its signature is re-encoded', async () => {
    let signed = await signRampRequest({ clientId: 'signed-client', privateKey: rampPrivateKey, method: 'GET' })
    for (let offset = 1; !/[+/]/.test(signed.signature); offset++) {
      const timestamp = new Date(Date.now() - offset).toISOString()
      signed = await signRampRequest({ clientId: 'signed-client', privateKey: rampPrivateKey, method: 'GET', timestamp })
    }
    const headers = { 'x-timestamp': signed.timestamp, 'x-signature': signed.signature }
    expect((await get('/v1/reference/banks', headers)).status).toBe(200)
    for (const [how, variant] of reEncodings(signed.signature)) {
      const replay = await get('/v1/reference/banks', { ...headers, 'x-signature': variant })
      expect({ how, status: replay.status, message: replay.body.message }).toEqual({ how, status: 401, message: 'Invalid request signature' })
    }
  })

  test('a GET signature covers only client id and timestamp, so that pair works once, on any path', async () => {
    const signed = await signRampRequest({ clientId: 'signed-client', privateKey: rampPrivateKey, method: 'GET' })
    const headers = { 'x-timestamp': signed.timestamp, 'x-signature': signed.signature }
    expect((await get('/v1/reference/banks', headers)).status).toBe(200)
    for (const path of ['/v1/reference/banks', '/v1/reference/payment-methods', '/v1/reference/currencies']) {
      expect((await get(path, headers)).body).toEqual({ status: 401, message: 'Replayed request signature', data: null })
    }
    // DELETE signs the same string: it is the same pair.
    expect((await get('/v1/recipient/1', headers, 'DELETE')).body.message).toBe('Replayed request signature')
  })
})
