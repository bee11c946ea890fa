import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { base64url, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { decrypt, loadKeys } from '../sandbox/infra/keys.ts'
import { startTestSandbox, type TestSandbox } from '../sandbox/sandbox.fixture.ts'
import { SdkError } from './errors.ts'
import { identityTokenType, verifyIdentityToken, type VerifyIdentityTokenOptions } from './identity.ts'

// A back end's verifier attacked through what a token's header and claims can name: key URLs
// (jku, x5u), critical extensions, an issuer that differs by a slash, claims of the wrong type, a
// flood of unknown key ids meant to make it fetch the keys again and again, key URLs that only
// look local. The provider's real key signs where the attack needs it to.

let sandbox: TestSandbox
let walletToken: string
/** A server the attacker controls: it serves the attacker's JWKS, or passes the provider's through, and counts requests. */
let attacker: Server
let attackerUrl: string
let attackerJwks: { keys: JWK[] } = { keys: [] }
const hits: string[] = []

beforeAll(async () => {
  sandbox = await startTestSandbox()
  walletToken = (await sandbox.signUp('verify-red-team@example.com')).walletToken
  attacker = createServer(async (request, response) => {
    hits.push(request.url ?? '')
    const body = request.url?.startsWith('/proxy') ? JSON.stringify((await sandbox.call('/.well-known/jwks.json')).body) : JSON.stringify(attackerJwks)
    response.writeHead(200, { 'content-type': 'application/json' }).end(body)
  })
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve))
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => attacker?.close(resolve))
  await sandbox?.dispose()
})

const issue = async () => (await sandbox.post('/api/v2/wallet/identity-token', {}, walletToken)).body.data.identityToken as string
const options = (more: Partial<VerifyIdentityTokenOptions> = {}): VerifyIdentityTokenOptions => ({
  appId: 'demo',
  providerUrl: sandbox.url,
  environment: 'development',
  ...more,
})
const refusal = (token: string, more: Partial<VerifyIdentityTokenOptions> = {}) =>
  verifyIdentityToken(token, options(more)).then(
    () => 'accepted',
    (error: unknown) => (error instanceof SdkError ? error.code : `not an SdkError: ${String(error)}`),
  )
const payloadOf = (token: string) => JSON.parse(new TextDecoder().decode(base64url.decode(token.split('.')[1]!))) as Record<string, unknown>
async function providerKey(kid: string) {
  const { rows } = await sandbox.store.query<{ sealed_private_jwk: string }>('SELECT sealed_private_jwk FROM identity_keys WHERE kid = $1', [kid])
  const jwk = JSON.parse(new TextDecoder().decode(decrypt(loadKeys(sandbox.dataDir).masterKey, rows[0]!.sealed_private_jwk, `identity-key:${kid}`)))
  return importJWK(jwk as JWK, 'ES256')
}
/** Signs `payload` with the provider's own current key under `header` (an insider's forgery: the header is what is attacked). */
async function resign(token: string, header: Record<string, unknown>, payload: Record<string, unknown> = payloadOf(token)) {
  const { kid } = decodeProtectedHeader(token)
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: kid!, typ: identityTokenType, ...header }).sign(await providerKey(kid!))
}

describe('verifyIdentityToken: attacks', () => {
  test('a key URL in the header (jku, x5u) is never fetched, and a token signed by the key it names is refused', async () => {
    const genuine = await issue()
    const pair = await generateKeyPair('ES256', { extractable: true })
    attackerJwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'attacker', alg: 'ES256', use: 'sig' }] }
    hits.length = 0
    for (const header of [{ jku: `${attackerUrl}/jwks.json` }, { x5u: `${attackerUrl}/cert.pem` }]) {
      const forged = await new SignJWT(payloadOf(genuine))
        .setProtectedHeader({ alg: 'ES256', kid: 'attacker', typ: identityTokenType, ...header })
        .sign(pair.privateKey)
      expect(await refusal(forged)).toBe('INVALID_IDENTITY_TOKEN')
    }
    expect(hits).toEqual([])
  })

  test('an unknown critical header is refused even under the real key', async () => {
    const genuine = await issue()
    const { kid } = decodeProtectedHeader(genuine)
    // Signed by hand: jose itself will not sign a header with an extension it does not know.
    const header = base64url.encode(JSON.stringify({ alg: 'ES256', kid, typ: identityTokenType, crit: ['wallet-kit-skip'], 'wallet-kit-skip': true }))
    const input = `${header}.${genuine.split('.')[1]}`
    const key = (await providerKey(kid!)) as CryptoKey
    const signature = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, new TextEncoder().encode(input)))
    expect(await refusal(`${input}.${base64url.encode(signature)}`)).toBe('INVALID_IDENTITY_TOKEN')
    // The same bytes without the extension verify: the refusal is the crit header's.
    const plain = base64url.encode(JSON.stringify({ alg: 'ES256', kid, typ: identityTokenType }))
    const plainInput = `${plain}.${genuine.split('.')[1]}`
    const plainSignature = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, new TextEncoder().encode(plainInput)))
    expect(await refusal(`${plainInput}.${base64url.encode(plainSignature)}`)).toBe('accepted')
  })

  test('claims of the wrong type or time, under the real key: exp as a string, nbf ahead, iss with a trailing slash', async () => {
    const genuine = await issue()
    const claims = payloadOf(genuine)
    expect(await refusal(await resign(genuine, {}, { ...claims, exp: String(claims.exp) }))).toBe('INVALID_IDENTITY_TOKEN')
    expect(await refusal(await resign(genuine, {}, { ...claims, nbf: Math.floor(Date.now() / 1000) + 600 }))).toBe('INVALID_IDENTITY_TOKEN')
    expect(await refusal(await resign(genuine, {}, { ...claims, iss: `${sandbox.url}/` }))).toBe('INVALID_IDENTITY_TOKEN')
    expect(await refusal(await resign(genuine, {}, { ...claims, iat: undefined }))).toBe('INVALID_IDENTITY_TOKEN')
    // The provider's URL as a server may write it (a path, a trailing slash) still names the same issuer.
    expect(await refusal(genuine, { providerUrl: `${sandbox.url}/some/path/` })).toBe('accepted')
  })

  test('tokens naming fresh unknown key ids do not make the verifier fetch the keys once per token', async () => {
    const genuine = await issue()
    const pair = await generateKeyPair('ES256')
    const jwksUrl = `${attackerUrl}/proxy/jwks.json`
    expect(await refusal(genuine, { jwksUrl })).toBe('accepted')
    hits.length = 0
    for (let index = 0; index < 20; index++) {
      const forged = await new SignJWT(payloadOf(genuine))
        .setProtectedHeader({ alg: 'ES256', kid: `unknown-${index}`, typ: identityTokenType })
        .sign(pair.privateKey)
      expect(await refusal(forged, { jwksUrl })).toBe('INVALID_IDENTITY_TOKEN')
    }
    expect(hits.length).toBeLessThanOrEqual(1)
  })

  test('key URLs that only look local are refused over plain HTTP', async () => {
    const token = await issue()
    for (const jwksUrl of [
      'http://localhost.attacker.example/jwks.json',
      'http://127.0.0.1.nip.io/jwks.json',
      'http://localhost@attacker.example/jwks.json',
      'http://attacker.example/#@localhost',
      'http://127.attacker.example/jwks.json',
      'file:///etc/passwd',
      'data:application/json,{"keys":[]}',
      'ftp://localhost/jwks.json',
    ])
      expect(await refusal(token, { jwksUrl })).toBe('INVALID_CONFIG')
  })
})
