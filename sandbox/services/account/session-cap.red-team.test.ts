import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// account/create takes the host's cap on the session (expireDate). The login that preceded it
// handed a refresh token of the same session, good for 15 minutes: it must not carry the session
// past the cap (nor, through it, a recovery or an identity token).

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

const exp = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()).exp as number

test("the login's refresh token, used after account/create with a cap, renews nothing past the cap", async () => {
  const { verificationToken, code } = await sandbox.requestCode('rt-create-cap@example.com')
  const login = (await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })).body.data
  const cap = new Date(Date.now() + 2 * 60_000)
  const created = await sandbox.post('/api/v2/account/create', { expireDate: cap.toISOString() }, login.accessToken)
  expect(created.status).toBe(200)
  expect(exp(created.body.data.refreshToken) * 1000).toBeLessThanOrEqual(cap.getTime())
  const renewed = await sandbox.post('/api/v2/wallet/refresh', { refreshToken: login.refreshToken })
  if (renewed.status === 200) expect(exp(renewed.body.data.refreshToken) * 1000).toBeLessThanOrEqual(cap.getTime())
  else expect(renewed.status).toBe(401)
})

test('held: without a cap, the wallet session keeps its full lifetime', async () => {
  const wallet = await sandbox.signUp('rt-create-nocap@example.com')
  expect(exp(wallet.refreshToken) * 1000 - Date.now()).toBeGreaterThan(24 * 60 * 60_000)
})
