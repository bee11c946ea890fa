import { beforeEach, expect, test } from 'vitest'
import { createWalletClient } from '../index.ts'
import { createTokenHolder } from '../config.ts'
import { onlyRequest, openRecorder } from '../recorder.fixture.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

const path = '/api/v2/wallet/logout'
const session = { walletToken: 'wt-held', refreshToken: 'rt-held', address: '0xA', rampAccessToken: 'ramp-held', rampClientSecret: 'publishable' }

test('posts the held wallet token as bearer and the refresh token in the body, then forgets the session', async () => {
  await rec.rules({ method: 'POST', path, body: null })
  const tokens = createTokenHolder(session)
  await createWalletClient({ appId: 'demo', baseUrls: rec.baseUrls, tokens }).logout()
  const req = await onlyRequest(rec)
  expect(req.method).toBe('POST')
  expect(req.path).toBe(path)
  expect(req.headers.authorization).toBe('Bearer wt-held')
  expect(req.headers['x-app-id']).toBe('demo')
  expect(JSON.parse(req.body)).toEqual({ refreshToken: 'rt-held' })
  // The app-level ramp client secret is not the session's.
  expect(tokens.get()).toEqual({ rampClientSecret: 'publishable' })
})

test('a failed call still forgets the held session, and the error reaches the caller', async () => {
  await rec.rules({ path, status: 401, message: 'Invalid token' })
  const tokens = createTokenHolder(session)
  await expect(createWalletClient({ baseUrls: rec.baseUrls, tokens }).logout()).rejects.toMatchObject({ code: '401', message: 'Invalid token' })
  expect(tokens.get()).toEqual({ rampClientSecret: 'publishable' })
})

test("tokens given with the call are sent instead, and another session's logout leaves the held one alone", async () => {
  await rec.rules({ path, body: null })
  const tokens = createTokenHolder(session)
  await createWalletClient({ baseUrls: rec.baseUrls, tokens }).logout({ walletToken: 'wt-other', refreshToken: 'rt-other' })
  const req = await onlyRequest(rec)
  expect(req.headers.authorization).toBe('Bearer wt-other')
  expect(JSON.parse(req.body)).toEqual({ refreshToken: 'rt-other' })
  expect(tokens.get()).toEqual(session)
})

test('a refresh token alone is enough; with nothing held or given no call is made', async () => {
  await rec.rules({ path, body: null })
  const tokens = createTokenHolder({ refreshToken: 'rt-only' })
  const wallet = createWalletClient({ baseUrls: rec.baseUrls, tokens })
  await wallet.logout()
  const req = await onlyRequest(rec)
  expect(req.headers.authorization).toBeUndefined()
  expect(JSON.parse(req.body)).toEqual({ refreshToken: 'rt-only' })
  expect(tokens.get()).toEqual({})
  await rec.reset()
  await wallet.logout()
  expect(await rec.requests()).toEqual([])
})
