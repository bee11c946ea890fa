import { calculateJwkThumbprint, createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet, type JWK } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { decrypt, loadKeys } from '../../infra/keys.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { identityTokenLifetimeSeconds, rotateIdentityKey } from './key-ring.ts'

// The keys identity tokens are signed with: published at /.well-known/jwks.json (public members
// only), kept sealed in the database, rotated with the next key published before it signs.

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())
afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const jwks = async () => (await sandbox.call('/.well-known/jwks.json')).body as JSONWebKeySet
const kids = async () => (await jwks()).keys.map((key) => key.kid)
/** What a provider runs on a schedule: the sandbox's own store and master key, in this process. */
const rotate = () => rotateIdentityKey({ store: sandbox.store, keys: loadKeys(sandbox.dataDir) })
const tokenFor = async (walletToken: string) => (await sandbox.post('/api/v2/wallet/identity-token', {}, walletToken)).body.data.identityToken as string
const verifyWith = (keys: JSONWebKeySet, token: string) =>
  jwtVerify(token, createLocalJWKSet(keys), { algorithms: ['ES256'], issuer: sandbox.url, audience: 'demo' })
const storedKeys = async () =>
  (await sandbox.store.query<{ kid: string; public_jwk: JWK; sealed_private_jwk: string }>('SELECT kid, public_jwk, sealed_private_jwk FROM identity_keys'))
    .rows

describe('GET /.well-known/jwks.json', () => {
  test('public EC P-256 keys with a kid each (their RFC 7638 thumbprint): the current one and the next; cacheable for 5 minutes', async () => {
    // Made when the sandbox started, not by a request.
    expect(await storedKeys()).toHaveLength(2)
    const answer = await sandbox.call('/.well-known/jwks.json', { app: null })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/)
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300')
    expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    const { keys } = answer.body as JSONWebKeySet
    expect(keys).toHaveLength(2)
    for (const key of keys) {
      expect(key).toEqual({ kty: 'EC', crv: 'P-256', x: expect.any(String), y: expect.any(String), kid: expect.any(String), alg: 'ES256', use: 'sig' })
      expect(key.kid).toBe(await calculateJwkThumbprint({ kty: key.kty, crv: key.crv, x: key.x, y: key.y } as JWK))
    }
  })

  test('private halves are sealed in the database and appear in no answer and no log line', async () => {
    const logged: string[] = []
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const)
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')))
    const wallet = await sandbox.signUp('jwks-private@example.com')
    const answers = [JSON.stringify(await jwks()), JSON.stringify((await sandbox.post('/api/v2/wallet/identity-token', {}, wallet.walletToken)).body)]
    await rotate()
    answers.push(JSON.stringify(await jwks()))

    const { masterKey } = loadKeys(sandbox.dataDir)
    const rows = await storedKeys()
    expect(rows.length).toBeGreaterThanOrEqual(3)
    for (const row of rows) {
      expect(row.public_jwk).not.toHaveProperty('d')
      expect(row.sealed_private_jwk).toMatch(/^v1\./)
      expect(row.sealed_private_jwk).not.toContain('"d"')
      const privateJwk = JSON.parse(new TextDecoder().decode(decrypt(masterKey, row.sealed_private_jwk, `identity-key:${row.kid}`))) as JWK
      expect(privateJwk.d).toMatch(/^[\w-]{43}$/)
      for (const text of [...answers, ...logged]) expect(text).not.toContain(privateJwk.d)
      // Sealed to its own kid: copied onto another row it does not open.
      expect(() => decrypt(masterKey, row.sealed_private_jwk, 'identity-key:another')).toThrow()
    }
  })
})

describe('rotation (rotateIdentityKey)', () => {
  test('the next key signs; old tokens verify until they expire; a JWKS cached before the rotation already holds the new key', async () => {
    const wallet = await sandbox.signUp('jwks-rotation@example.com')
    const before = await jwks()
    const oldToken = await tokenFor(wallet.walletToken)
    const oldKid = decodeProtectedHeader(oldToken).kid!
    expect(before.keys[0]!.kid).toBe(oldKid)
    const waiting = before.keys[1]!.kid!

    expect(await rotate()).toEqual({ kid: waiting })
    const newToken = await tokenFor(wallet.walletToken)
    expect(decodeProtectedHeader(newToken).kid).toBe(waiting)
    // A verifier holding the JWKS from before the rotation knows the new key already.
    expect((await verifyWith(before, newToken)).payload.aud).toBe('demo')
    // The old key stays published while its tokens live; a new next key waits.
    const after = await jwks()
    expect(after.keys[0]!.kid).toBe(waiting)
    expect(after.keys.map((key) => key.kid)).toContain(oldKid)
    expect(after.keys.filter((key) => !before.keys.some((known) => known.kid === key.kid))).toHaveLength(1)
    expect((await verifyWith(after, oldToken)).payload.aud).toBe('demo')

    // Once every token of the old key has expired (and a minute for slow clocks), it is no longer published.
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + (identityTokenLifetimeSeconds - 5) * 1000)
    expect(await kids()).toContain(oldKid)
    vi.setSystemTime(Date.now() + 66 * 1000)
    expect(await kids()).not.toContain(oldKid)
    await expect(verifyWith(await jwks(), oldToken)).rejects.toThrow()
    // The next rotation deletes it, private half and all.
    await rotate()
    expect((await storedKeys()).map((row) => row.kid)).not.toContain(oldKid)
  })
})
