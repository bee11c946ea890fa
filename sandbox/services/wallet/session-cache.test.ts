import { verifyMessage, type Hex } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// A signing call keeps its checked token, its session's state and its wallet row in memory
// (auth/jwt.ts, auth/app-guard.ts, wallet/caller-wallet.ts). None of that may outlive what ended
// it: an expiry, a logout, a revocation written to the database, a permission switched off.

let sandbox: TestSandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())
afterEach(() => void vi.useRealTimers())

const signMessage = (token: string, message = 'hi', app?: string) => sandbox.post('/api/v2/wallet/sign-message', { network: 'local-1', message }, token, app)

/** A wallet whose token and session state are cached: it has just signed three times. */
async function warmWallet(email: string) {
  const wallet = await sandbox.signUp(email)
  for (const message of ['one', 'two', 'three']) {
    const signed = await signMessage(wallet.walletToken, message)
    expect(await verifyMessage({ address: wallet.address, message, signature: signed.body.data.signature as Hex })).toBe(true)
  }
  return wallet
}

describe('what a cached signing call still refuses', () => {
  test('a wallet token once it expires', async () => {
    const wallet = await warmWallet('expiring@example.com')
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.now() + 15 * 60 * 1000 + 1000)
    expect((await signMessage(wallet.walletToken)).body).toEqual({ status: 401, message: 'Token expired', data: null })
  })

  test('the token for another kind, app or environment', async () => {
    const wallet = await warmWallet('elsewhere@example.com')
    // A wallet token is not an access token (account/create takes those).
    expect((await sandbox.post('/api/v2/account/create', {}, wallet.walletToken)).body).toEqual({ status: 401, message: 'Invalid token', data: null })
    expect((await signMessage(wallet.walletToken, 'hi', 'elsewhere')).body).toEqual({ status: 401, message: 'Invalid token', data: null })
    const otherEnvironment = await sandbox.call('/api/v2/wallet/sign-message', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-environment': 'production', authorization: `Bearer ${wallet.walletToken}` },
      body: JSON.stringify({ network: 'local-1', message: 'hi' }),
    })
    expect(otherEnvironment.body).toEqual({ status: 401, message: 'Invalid token', data: null })
  })

  test('a session ended by logout, on the very next call', async () => {
    const wallet = await warmWallet('logging-out@example.com')
    expect((await sandbox.post('/api/v2/wallet/logout', { refreshToken: wallet.refreshToken }, wallet.walletToken)).status).toBe(200)
    expect((await signMessage(wallet.walletToken)).body).toEqual({ status: 401, message: 'Session revoked', data: null })
  })

  test('a session revoked by a reused refresh token, on the very next call', async () => {
    const wallet = await warmWallet('reused-refresh@example.com')
    const refresh = (refreshToken: string) => sandbox.post('/api/v2/wallet/refresh', { refreshToken })
    expect((await refresh(wallet.refreshToken)).status).toBe(200)
    // The rotated-out token again: a leak, so the whole session ends.
    expect((await refresh(wallet.refreshToken)).body.message).toBe('Refresh token reused; session revoked')
    expect((await signMessage(wallet.walletToken)).body).toEqual({ status: 401, message: 'Session revoked', data: null })
  })

  test('a session revoked straight in the database, on the very next call', async () => {
    const wallet = await warmWallet('revoked-by-sql@example.com')
    const other = await warmWallet('still-here@example.com')
    await sandbox.store.query('UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = (SELECT user_id FROM wallets WHERE address = $1)', [wallet.address])
    expect((await signMessage(wallet.walletToken)).body).toEqual({ status: 401, message: 'Session revoked', data: null })
    expect((await signMessage(other.walletToken)).status).toBe(200)
  })

  test('a wallet whose signing permission was switched off, on the very next call', async () => {
    const wallet = await warmWallet('switched-off@example.com')
    const off = await fetch(`${sandbox.url}/dev/api/wallets/${wallet.address}/permission`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"granted":false}',
    })
    expect(off.status).toBe(200)
    expect((await signMessage(wallet.walletToken)).body).toMatchObject({ status: 407, message: 'Permission needed' })

    await sandbox.store.query('UPDATE wallets SET permission_granted = true WHERE address = $1', [wallet.address])
    expect((await signMessage(wallet.walletToken)).status).toBe(200)
    await sandbox.store.query('UPDATE wallets SET permission_granted = false WHERE address = $1', [wallet.address])
    expect((await signMessage(wallet.walletToken)).body).toMatchObject({ status: 407, message: 'Permission needed' })
  })
})
