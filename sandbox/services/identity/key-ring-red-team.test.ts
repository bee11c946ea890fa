import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { loadKeys } from '../../infra/keys.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { rotateIdentityKey } from './key-ring.ts'

// Rotations that race: two schedulers (or a retry) rotating at once while tokens are being minted.
// Started together, every token signs with a key the JWKS fetched before the rotations held,
// and no key is left signing or published twice.

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

const jwks = async () => (await sandbox.call('/.well-known/jwks.json')).body as JSONWebKeySet
const rotate = () => rotateIdentityKey({ store: sandbox.store, keys: loadKeys(sandbox.dataDir) })
const verifyWith = (keys: JSONWebKeySet, token: string) =>
  jwtVerify(token, createLocalJWKSet(keys), { algorithms: ['ES256'], issuer: sandbox.url, audience: 'demo' })

test('concurrent rotations while tokens are minted: one new signer, already in the JWKS a verifier cached before', async () => {
  const wallet = await sandbox.signUp('key-ring-race@example.com')
  const before = await jwks()
  const mint = async () => (await sandbox.post('/api/v2/wallet/identity-token', {}, wallet.walletToken)).body.data.identityToken as string
  const results = await Promise.all([rotate(), mint(), rotate(), mint(), rotate(), mint()])
  const rotations = [results[0], results[2], results[4]] as { kid: string }[]
  const tokens = [results[1], results[3], results[5]] as string[]
  // Each rotation activated the key that was waiting, the same one: the waiting key was published before it signs.
  expect(new Set(rotations.map((rotation) => rotation.kid)).size).toBe(1)
  expect(before.keys.map((key) => key.kid)).toContain(rotations[0]!.kid)
  for (const token of [...tokens, await mint()]) expect((await verifyWith(before, token)).payload.aud).toBe('demo')
  expect(decodeProtectedHeader(await mint()).kid).toBe(rotations[0]!.kid)
  const after = await jwks()
  expect(new Set(after.keys.map((key) => key.kid)).size).toBe(after.keys.length)
  // The signer is first; the others are the retired one and the waiting one(s).
  expect(after.keys[0]!.kid).toBe(rotations[0]!.kid)
})
