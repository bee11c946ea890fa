import { base64url, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { decrypt, loadKeys } from '../sandbox/infra/keys.ts'
import { startTestSandbox, type TestSandbox } from '../sandbox/sandbox.fixture.ts'
import { rotateIdentityKey } from '../sandbox/services/identity/key-ring.ts'
import { SdkError } from './errors.ts'
import { identityTokenType, verifyIdentityToken, type VerifyIdentityTokenOptions } from './identity.ts'

// verifyIdentityToken as an app's back end runs it, against identity tokens of a real sandbox and
// against forgeries: another app's token, an expired one, unsigned and HMAC tokens, foreign keys.

let sandbox: TestSandbox
let walletToken: string
beforeAll(async () => {
  sandbox = await startTestSandbox()
  walletToken = (await sandbox.signUp('verify-identity@example.com')).walletToken
})
afterAll(() => sandbox?.dispose())
afterEach(() => void vi.useRealTimers())

const issue = async (body: object = {}, token = walletToken, app = 'demo') => {
  const answer = await sandbox.post('/api/v2/wallet/identity-token', body, token, app)
  if (answer.status !== 200) throw new Error(JSON.stringify(answer.body))
  return answer.body.data.identityToken as string
}
const options = (more: Partial<VerifyIdentityTokenOptions> = {}): VerifyIdentityTokenOptions => ({
  appId: 'demo',
  providerUrl: sandbox.url,
  environment: 'development',
  ...more,
})
/** The SdkError code a verification fails with. */
const refusal = (token: string, more: Partial<VerifyIdentityTokenOptions> = {}) =>
  verifyIdentityToken(token, options(more)).then(
    () => 'accepted',
    (error: unknown) => (error instanceof SdkError ? error.code : `not an SdkError: ${String(error)}`),
  )
const parts = (token: string) => {
  const [header, payload] = token
    .split('.')
    .slice(0, 2)
    .map((part) => JSON.parse(new TextDecoder().decode(base64url.decode(part))) as Record<string, unknown>)
  return { header: header!, payload: payload! }
}
const encode = (value: object) => base64url.encode(JSON.stringify(value))
/** The provider's current private key, read from the sandbox's database as only the sandbox itself can. */
async function providerKey(kid: string) {
  const { rows } = await sandbox.store.query<{ sealed_private_jwk: string }>('SELECT sealed_private_jwk FROM identity_keys WHERE kid = $1', [kid])
  const jwk = JSON.parse(new TextDecoder().decode(decrypt(loadKeys(sandbox.dataDir).masterKey, rows[0]!.sealed_private_jwk, `identity-key:${kid}`)))
  return importJWK(jwk as JWK, 'ES256')
}

describe('verifyIdentityToken', () => {
  test("a sandbox token verifies against the provider's JWKS and answers typed claims", async () => {
    const claims = await verifyIdentityToken(await issue(), options())
    const user = await sandbox.store.query<{ id: string; address: string }>(
      "SELECT users.id, wallets.address FROM users JOIN wallets ON wallets.user_id = users.id WHERE users.email = 'verify-identity@example.com'",
    )
    expect(claims).toEqual({
      issuer: sandbox.url,
      appId: 'demo',
      environment: 'development',
      userId: user.rows[0]!.id,
      walletAddress: user.rows[0]!.address,
      smartAccounts: [],
      signInMethod: 'email',
      issuedAt: expect.any(Number),
      expiresAt: expect.any(Number),
      tokenId: expect.any(String),
    })
    expect(claims.expiresAt - claims.issuedAt).toBe(600)
    expect(await verifyIdentityToken(await issue(), options({ environment: 'development', jwksUrl: `${sandbox.url}/.well-known/jwks.json` }))).toMatchObject({
      userId: claims.userId,
    })
  })

  test("a token for app A is refused to app B; another environment's too, always", async () => {
    const forDemo = await issue()
    expect(await refusal(forDemo, { appId: 'smart' })).toBe('INVALID_IDENTITY_TOKEN')
    expect(await refusal(forDemo, { environment: 'production' })).toBe('INVALID_IDENTITY_TOKEN')
    // A back end written in plain JavaScript that leaves the environment out accepts neither (a
    // development page's token, same app id and issuer, must not sign anyone in to production).
    expect(await refusal(forDemo, { environment: undefined as never })).toBe('INVALID_IDENTITY_TOKEN')
    // And the other way round: a token the smart app's session asked for is not demo's.
    const smartUser = await sandbox.signUp('verify-identity-smart@example.com', 'smart')
    const forSmart = await issue({}, smartUser.walletToken, 'smart')
    expect(await refusal(forSmart)).toBe('INVALID_IDENTITY_TOKEN')
    expect(await refusal(forSmart, { appId: 'smart' })).toBe('accepted')
  })

  test('an expired token is refused (5 s of clock tolerance, no more)', async () => {
    const token = await issue()
    const { exp } = parts(token).payload as { exp: number }
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime((exp + 4) * 1000)
    expect(await refusal(token)).toBe('accepted')
    vi.setSystemTime((exp + 6) * 1000)
    expect(await refusal(token)).toBe('IDENTITY_TOKEN_EXPIRED')
    expect(await refusal(token, { clockToleranceSeconds: 0 })).toBe('IDENTITY_TOKEN_EXPIRED')
  })

  test('the nonce is checked when the server names one', async () => {
    const nonce = 'server-nonce-77c1d9a0'
    const token = await issue({ nonce })
    expect((await verifyIdentityToken(token, options({ nonce }))).nonce).toBe(nonce)
    expect(await refusal(token, { nonce: 'server-nonce-other-one' })).toBe('INVALID_IDENTITY_TOKEN')
    expect(await refusal(await issue(), { nonce })).toBe('INVALID_IDENTITY_TOKEN')
  })

  test("the issuer is the provider's origin: the same keys under another name are refused unless named", async () => {
    const token = await issue()
    const other = sandbox.url.replace('localhost', '127.0.0.1')
    expect(await refusal(token, { providerUrl: other })).toBe('INVALID_IDENTITY_TOKEN')
    expect(await refusal(token, { providerUrl: other, issuer: sandbox.url })).toBe('accepted')
  })
})

describe('forgeries are refused', () => {
  test('alg none, with and without a signature part', async () => {
    const { header, payload } = parts(await issue())
    for (const alg of ['none', 'None', 'NONE']) {
      const unsigned = `${encode({ ...header, alg })}.${encode(payload)}`
      expect(await refusal(`${unsigned}.`), alg).toBe('INVALID_IDENTITY_TOKEN')
      expect(await refusal(unsigned), alg).toBe('INVALID_IDENTITY_TOKEN')
    }
  })

  test("HS256 with the provider's public key as the secret (every form of it)", async () => {
    const token = await issue()
    const { header, payload } = parts(token)
    const jwks = (await sandbox.call('/.well-known/jwks.json')).body as { keys: JWK[] }
    const key = jwks.keys.find((k) => k.kid === header.kid)!
    const secrets = [JSON.stringify(key), JSON.stringify({ kty: key.kty, crv: key.crv, x: key.x, y: key.y }), key.x!, `${key.x}${key.y}`]
    for (const secret of secrets) {
      const forged = await new SignJWT(payload).setProtectedHeader({ ...header, alg: 'HS256' }).sign(new TextEncoder().encode(secret))
      expect(await refusal(forged)).toBe('INVALID_IDENTITY_TOKEN')
    }
  })

  test('a key not in the JWKS: unknown kid, the real kid, or the key embedded in the header', async () => {
    const { header, payload } = parts(await issue())
    const attacker = await generateKeyPair('ES256', { extractable: true })
    const sign = (protectedHeader: Record<string, unknown>) =>
      new SignJWT(payload).setProtectedHeader({ alg: 'ES256', ...protectedHeader }).sign(attacker.privateKey)
    const jwk = await exportJWK(attacker.publicKey)
    for (const forged of [
      await sign({ typ: identityTokenType, kid: 'attacker-key' }),
      await sign({ typ: identityTokenType, kid: header.kid }),
      await sign({ typ: identityTokenType }),
      await sign({ typ: identityTokenType, kid: header.kid, jwk }),
      await sign({ typ: identityTokenType, jku: 'http://127.0.0.1:1/jwks.json', kid: 'attacker-key' }),
    ])
      expect(await refusal(forged), JSON.stringify(decodeProtectedHeader(forged))).toBe('INVALID_IDENTITY_TOKEN')
  })

  test("a changed claim breaks the signature; the sandbox's own HS256 wallet token is no identity token", async () => {
    const token = await issue()
    const [header, , signature] = token.split('.')
    const { payload } = parts(token)
    expect(await refusal(`${header}.${encode({ ...payload, wallet_address: '0x000000000000000000000000000000000000dEaD' })}.${signature}`)).toBe(
      'INVALID_IDENTITY_TOKEN',
    )
    expect(await refusal(walletToken)).toBe('INVALID_IDENTITY_TOKEN')
    expect(await refusal('not a token')).toBe('INVALID_IDENTITY_TOKEN')
  })

  test("signed by the provider's key but not an identity token: another typ, several audiences, missing claims", async () => {
    const { header, payload } = parts(await issue())
    const key = await providerKey(header.kid as string)
    const sign = (body: Record<string, unknown>, typ = identityTokenType) =>
      new SignJWT(body).setProtectedHeader({ alg: 'ES256', kid: header.kid as string, typ }).sign(key)
    expect(await refusal(await sign(payload))).toBe('accepted') // the forger's tool works
    expect(await refusal(await sign(payload, 'JWT'))).toBe('INVALID_IDENTITY_TOKEN')
    expect(await refusal(await sign({ ...payload, aud: ['demo', 'smart'] }))).toBe('INVALID_IDENTITY_TOKEN')
    for (const claim of ['wallet_address', 'sign_in_method', 'environment', 'smart_accounts', 'jti', 'sub']) {
      const { [claim]: _left, ...rest } = payload
      expect(await refusal(await sign(rest)), claim).toBe('INVALID_IDENTITY_TOKEN')
    }
  })
})

describe('rotation', () => {
  test('old tokens verify until they expire; new tokens carry the new kid and verify from the keys fetched before', async () => {
    const oldToken = await issue()
    expect(await refusal(oldToken)).toBe('accepted') // the JWKS is now cached in this process
    const rotated = await rotateIdentityKey({ store: sandbox.store, keys: loadKeys(sandbox.dataDir) })
    const newToken = await issue()
    expect(decodeProtectedHeader(newToken).kid).toBe(rotated.kid)
    expect(decodeProtectedHeader(newToken).kid).not.toBe(decodeProtectedHeader(oldToken).kid)
    expect(await refusal(newToken)).toBe('accepted')
    expect(await refusal(oldToken)).toBe('accepted')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(((parts(oldToken).payload.exp as number) + 6) * 1000)
    expect(await refusal(oldToken)).toBe('IDENTITY_TOKEN_EXPIRED')
  })
})

describe('options', () => {
  test('refuses a JWKS over plain HTTP from another machine, a missing app id, a tolerance over a minute', async () => {
    const token = await issue()
    expect(await refusal(token, { jwksUrl: 'http://provider.example/.well-known/jwks.json' })).toBe('INVALID_CONFIG')
    expect(await refusal(token, { providerUrl: 'http://provider.example' })).toBe('INVALID_CONFIG')
    expect(await refusal(token, { appId: '' })).toBe('INVALID_CONFIG')
    expect(await refusal(token, { providerUrl: 'not a url' })).toBe('INVALID_CONFIG')
    expect(await refusal(token, { clockToleranceSeconds: 3600 })).toBe('INVALID_CONFIG')
  })

  test('a JWKS that cannot be fetched is its own error, not an invalid token', async () => {
    expect(await refusal(await issue(), { jwksUrl: 'http://127.0.0.1:9/jwks.json' })).toBe('JWKS_UNAVAILABLE')
  })
})
