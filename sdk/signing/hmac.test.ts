import { expect, test } from 'vitest'
import { openRecorder } from '../recorder.fixture.ts'
import { signSmartAccountRequest, smartAccountBodyHash } from './hmac.ts'

const rec = await openRecorder()

test('an empty body hashes to the empty string', async () => {
  expect(await smartAccountBodyHash('')).toBe('')
  expect(await smartAccountBodyHash(undefined)).toBe('')
})

test('the body hash is SHA-256 of the minified JSON, whatever the whitespace', async () => {
  const spaced = '{ "accountId" : "a1",\n  "amount": "1" }'
  const expected = await rec.sha256('{"accountId":"a1","amount":"1"}')
  expect(await smartAccountBodyHash(spaced)).toBe(expected)
  expect(expected).toMatch(/^[0-9a-f]{64}$/)
})

test('invalid JSON throws Invalid JSON input: <parser message>', async () => {
  await expect(smartAccountBodyHash('{oops')).rejects.toThrow(/^Invalid JSON input: .+/)
})

test('signature = base64 HMAC-SHA256(secret, METHOD:/api/v1<path>:bodyHash:timestamp), checked with node:crypto', async () => {
  const timestamp = '2026-11-02T10:00:00.000Z'
  const body = '{"owner":{"id":"u1","provider":"wallet-kit"}}'
  const signed = await signSmartAccountRequest({ clientSecret: 's3cret', method: 'post', path: '/smart-account', body, timestamp })
  const hash = await rec.sha256(body)
  expect(signed.stringToSign).toBe(`POST:/api/v1/smart-account:${hash}:${timestamp}`)
  expect(signed.signature).toBe(await rec.hmac('s3cret', signed.stringToSign))
  expect(signed.timestamp).toBe(timestamp)
})

test('the timestamp defaults to now, ISO-8601 UTC', async () => {
  const before = Date.now()
  const { timestamp } = await signSmartAccountRequest({ clientSecret: 'k', method: 'GET', path: '/x', body: '' })
  expect(timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  expect(Date.parse(timestamp)).toBeGreaterThanOrEqual(before - 1)
})
