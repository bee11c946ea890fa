import { decodeJwt } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { createClient } from '../../../sdk/index.ts'
import { unusedLoginRefreshSeconds } from './sessions.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// Sessions end when the user says so: logout revokes the refresh family and every wallet token of
// that session. A login that never created a wallet leaves a refresh token that dies soon.

let sandbox: TestSandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())
afterEach(() => void vi.useRealTimers())

const address = (walletToken: string) => sandbox.post('/api/v2/wallet/address', { network: 'evm' }, walletToken)
const refresh = (refreshToken: string) => sandbox.post('/api/v2/wallet/refresh', { refreshToken })
const logout = (walletToken: string | undefined, body: unknown) => sandbox.post('/api/v2/wallet/logout', body, walletToken)

async function login(email: string) {
  const { verificationToken, code } = await sandbox.requestCode(email)
  const verified = await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
  expect(verified.status).toBe(200)
  return verified.body.data as { isWalletCreated: boolean; accessToken?: string; walletToken?: string; refreshToken: string }
}

describe('logout', () => {
  test('revokes the wallet token and the refresh token it was given; another session lives on', async () => {
    const session = await sandbox.signUp('leaving@example.com')
    const other = await login('leaving@example.com')
    expect((await address(session.walletToken)).status).toBe(200)

    expect((await logout(session.walletToken, { refreshToken: session.refreshToken })).body).toEqual({ status: 200, message: 'OK', data: null })
    expect((await address(session.walletToken)).body).toEqual({ status: 401, message: 'Session revoked', data: null })
    expect((await refresh(session.refreshToken)).body).toEqual({ status: 401, message: 'Session revoked', data: null })
    // The same user's other login is another session.
    expect((await address(other.walletToken!)).status).toBe(200)
    expect((await refresh(other.refreshToken)).status).toBe(200)
    // Logging out twice is no error.
    expect((await logout(session.walletToken, { refreshToken: session.refreshToken })).status).toBe(200)
  })

  test('every wallet token of the session dies, also ones handed out before a rotation', async () => {
    const session = await sandbox.signUp('rotated@example.com')
    const rotated = (await refresh(session.refreshToken)).body.data as { walletToken: string; refreshToken: string }
    expect((await logout(rotated.walletToken, { refreshToken: rotated.refreshToken })).status).toBe(200)
    for (const token of [session.walletToken, rotated.walletToken]) expect((await address(token)).body.message).toBe('Session revoked')
    expect((await refresh(rotated.refreshToken)).body.message).toBe('Session revoked')
  })

  test('works with either token alone, an expired wallet token included', async () => {
    const byRefresh = await sandbox.signUp('by-refresh@example.com')
    expect((await logout(undefined, { refreshToken: byRefresh.refreshToken })).status).toBe(200)
    expect((await address(byRefresh.walletToken)).body.message).toBe('Session revoked')

    const byBearer = await sandbox.signUp('by-bearer@example.com')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 60 * 60 * 1000)
    expect((await address(byBearer.walletToken)).body.message).toBe('Token expired')
    expect((await logout(byBearer.walletToken, {})).status).toBe(200)
    vi.useRealTimers()
    expect((await refresh(byBearer.refreshToken)).body.message).toBe('Session revoked')
  })

  test('refuses what proves no session', async () => {
    const session = await sandbox.signUp('not-leaving@example.com')
    expect((await logout(undefined, {})).body).toEqual({ status: 401, message: 'Missing bearer token', data: null })
    expect((await logout('x.y.z', {})).body).toEqual({ status: 401, message: 'Invalid token', data: null })
    expect((await logout(undefined, { refreshToken: 'nonsense' })).body).toEqual({ status: 401, message: 'Invalid token', data: null })
    // A wallet token is not a refresh token.
    expect((await logout(undefined, { refreshToken: session.walletToken })).body.message).toBe('Invalid token')
    expect((await logout(session.walletToken, { refreshToken: 'nonsense' })).status).toBe(401)
    expect((await logout(session.walletToken, { refreshToken: session.refreshToken, extra: 1 })).status).toBe(400)
    // Nothing above ended the session.
    expect((await address(session.walletToken)).status).toBe(200)
    expect((await refresh(session.refreshToken)).status).toBe(200)
  })

  test('a reused refresh token ends the wallet tokens of its session too', async () => {
    const session = await sandbox.signUp('stolen@example.com')
    const rotated = (await refresh(session.refreshToken)).body.data as { walletToken: string }
    expect((await refresh(session.refreshToken)).body.message).toBe('Refresh token reused; session revoked')
    expect((await address(rotated.walletToken)).body.message).toBe('Session revoked')
  })

  test("the sdk's wallet.logout ends the session on the server and clears the token holder", async () => {
    const client = createClient({
      appId: 'demo',
      clientSecret: 'demo-client-secret',
      baseUrls: { wallet: `${sandbox.url}/api/v2`, smartAccount: `${sandbox.url}/api/v1`, ramp: `${sandbox.url}/v1`, appConfig: `${sandbox.url}/api/v1` },
    })
    const { verificationToken } = await client.auth.loginOtp({ email: 'sdk-logout@example.com' })
    const [message] = (await sandbox.call('/dev/api/inbox?to=sdk-logout@example.com')).body as { code: string }[]
    const login = await client.auth.verifyOtp({ verificationToken, otp: message!.code })
    await client.account.create({ accessToken: login.accessToken! })
    const { walletToken, refreshToken } = client.tokens.get()
    expect((await client.wallet.address({ network: 'evm' })).address).toMatch(/^0x/)

    await client.wallet.logout()
    expect(client.tokens.get()).toEqual({})
    expect((await address(walletToken!)).body.message).toBe('Session revoked')
    expect((await refresh(refreshToken!)).body.message).toBe('Session revoked')
  })
})

describe('a login that never created a wallet', () => {
  test(`leaves a refresh token that expires after ${unusedLoginRefreshSeconds / 60} minutes`, async () => {
    const first = await login('undecided@example.com')
    expect(first.isWalletCreated).toBe(false)
    const claims = decodeJwt(first.refreshToken)
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(unusedLoginRefreshSeconds)

    // Created the wallet, but kept the login's refresh token unused: it dies on its own schedule.
    const created = await sandbox.post('/api/v2/account/create', {}, first.accessToken)
    expect(created.status).toBe(200)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + (unusedLoginRefreshSeconds + 60) * 1000)
    expect((await refresh(first.refreshToken)).body).toEqual({ status: 401, message: 'Token expired', data: null })
    // The wallet's own session (7 days) is not touched.
    expect((await refresh(created.body.data.refreshToken)).status).toBe(200)
  })

  test('is still usable just before then', async () => {
    const first = await login('quick@example.com')
    expect((await sandbox.post('/api/v2/account/create', {}, first.accessToken)).status).toBe(200)
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + (unusedLoginRefreshSeconds - 60) * 1000)
    expect((await refresh(first.refreshToken)).status).toBe(200)
  })

  test('a logout before the wallet is created ends the access token too', async () => {
    const first = await login('changed-mind@example.com')
    expect((await logout(undefined, { refreshToken: first.refreshToken })).status).toBe(200)
    expect((await sandbox.post('/api/v2/account/create', {}, first.accessToken)).body).toEqual({ status: 401, message: 'Session revoked', data: null })
  })
})
