import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// Each recovery that succeeds starts a session (a refresh token, a sign-in row, the key sealed
// again): whoever holds the file may do it now and then, not without end.

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimits: { recoveriesPerUser: { max: 3, windowMs: 60 * 60_000 } } })
})
afterAll(() => sandbox?.dispose())

const recover = (secret0: string, token: string) =>
  sandbox.call('/api/v2/account/recover', {
    method: 'POST',
    body: new URLSearchParams({ secret0 }).toString(),
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
  })

test('a user recovers up to the hourly budget, wrong secrets counted too, then gets 429 with Retry-After; another user is not held', async () => {
  const first = await sandbox.signUp('recover-limit-a@example.com')
  // Each recovery ends the session it came from: the next one goes on with the session it started.
  const once = await recover(first.secret0, first.walletToken)
  expect(once.status).toBe(200)
  expect((await recover(`0x${'11'.repeat(32)}`, once.body.data.walletToken)).status).toBe(400)
  const twice = await recover(first.secret0, once.body.data.walletToken)
  expect(twice.status).toBe(200)
  const refused = await recover(first.secret0, twice.body.data.walletToken)
  expect(refused.status).toBe(429)
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
  const second = await sandbox.signUp('recover-limit-b@example.com')
  expect((await recover(second.secret0, second.walletToken)).status).toBe(200)
})

test('a recovery from a live session carries its cap (expireDate) over and ends it: the old refresh token is refused', async () => {
  const { verificationToken, code } = await sandbox.requestCode('recover-cap@example.com')
  const login = await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
  const cap = new Date(Date.now() + 2 * 60 * 60_000)
  const created = (await sandbox.post('/api/v2/account/create', { expireDate: cap.toISOString() }, login.body.data.accessToken)).body.data
  const restored = await recover(created.secret0, created.walletToken)
  expect(restored.status).toBe(200)
  const { refreshToken } = restored.body.data as { refreshToken: string }
  const exp = JSON.parse(Buffer.from(refreshToken.split('.')[1]!, 'base64url').toString()).exp as number
  expect(exp * 1000).toBeLessThanOrEqual(cap.getTime())
  expect((await sandbox.post('/api/v2/wallet/refresh', { refreshToken: created.refreshToken })).status).toBe(401)
  expect((await sandbox.post('/api/v2/wallet/refresh', { refreshToken })).status).toBe(200)
})
