import { expect, test } from 'vitest'
import { openRecorder } from '../recorder.fixture.ts'
import { rampStringToSign, signRampRequest } from './rsa.ts'

const rec = await openRecorder()
const keys = await rec.rsaKeys()
const timestamp = '2026-11-02T10:00:00.000Z'

test.each(['GET', 'DELETE', 'get'])('%s signs clientId:timestamp', async (method) => {
  expect(await rampStringToSign(method, 'cid', timestamp, { ignored: true })).toBe(`cid:${timestamp}`)
})

test.each(['POST', 'PATCH', 'PUT'])('%s signs clientId:timestamp:sha256(JSON.stringify(body ?? {}))', async (method) => {
  const body = { amount: 10, currency: 'IDR' }
  expect(await rampStringToSign(method, 'cid', timestamp, body)).toBe(`cid:${timestamp}:${await rec.sha256(JSON.stringify(body))}`)
  expect(await rampStringToSign(method, 'cid', timestamp, undefined)).toBe(`cid:${timestamp}:${await rec.sha256('{}')}`)
})

test.each(['OPTIONS', 'HEAD', 'TRACE'])('%s: method not allowed', async (method) => {
  await expect(rampStringToSign(method, 'cid', timestamp, undefined)).rejects.toThrow(/^method not allowed$/)
})

test.each([
  ['PKCS#8', 'privateKeyPkcs8'],
  ['PKCS#1', 'privateKeyPkcs1'],
] as const)('a %s PEM key signs RSASSA-PKCS1-v1_5 SHA-256, verified with the public key by node:crypto', async (_, field) => {
  const signed = await signRampRequest({ clientId: 'cid', privateKey: keys[field], method: 'POST', body: { a: 1 }, timestamp })
  expect(await rec.rsaVerify(keys.publicKey, signed.stringToSign, signed.signature)).toBe(true)
  expect(await rec.rsaVerify(keys.publicKey, `${signed.stringToSign}x`, signed.signature)).toBe(false)
})

test('a malformed key is refused before anything is signed', async () => {
  await expect(signRampRequest({ clientId: 'c', privateKey: 'not a pem', method: 'GET' })).rejects.toThrow(/Invalid private key/)
})
