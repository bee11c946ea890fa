import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readSeed } from '../app-config/apps.ts'
import { upsertApp } from '../app-config/queries.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

let sandbox: TestSandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
  const demo = readSeed().find((seed) => seed.appId === 'demo')!
  await upsertApp(sandbox.store, { ...demo, appId: 'ramp', settings: { ...demo.settings, rampableClientSecret: 'ramp-publishable-key' } })
  await upsertApp(sandbox.store, { ...demo, appId: 'no-ramp', clientSecret: 'no-ramp-secret', settings: { ...demo.settings, rampableClientSecret: null } })
})
afterAll(() => sandbox?.dispose())

async function login(email: string, app = 'demo') {
  const { verificationToken, code } = await sandbox.requestCode(email, app)
  return (await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code }, undefined, app)).body.data
}

const recover = (fields: Record<string, string> | FormData, token: string) =>
  sandbox.call('/api/v2/account/recover', {
    method: 'POST',
    body: fields instanceof FormData ? fields : new URLSearchParams(fields).toString(),
    headers: { authorization: `Bearer ${token}`, ...(fields instanceof FormData ? {} : { 'content-type': 'application/x-www-form-urlencoded' }) },
  })

describe('account/recover', () => {
  test('secret0 (as a field or the downloaded file) proves ownership and restores the signing key', async () => {
    const wallet = await sandbox.signUp('recover@example.com')
    // Damage the signing copy: only the recovery shares can bring the key back.
    await sandbox.store.query("UPDATE wallets SET encrypted_key = 'v1.AAAA.AAAA.AAAA' WHERE address = $1", [wallet.address])
    const broken = await sandbox.post('/api/v2/wallet/sign-message', { network: 'local-1', message: 'x' }, wallet.walletToken)
    expect(broken.status).toBe(500)
    expect(broken.body).toEqual({ status: 500, message: 'Internal server error', data: null })

    const fresh = await login('recover@example.com')
    const file = new FormData()
    file.append('file', new Blob([`Wallet Kit recovery secret\n${wallet.secret0}\n`]), 'wallet-recovery-secret.walletkit')
    const restored = await recover(file, fresh.walletToken)
    expect(restored.body).toEqual({
      status: 200,
      message: 'OK',
      data: { walletToken: expect.any(String), refreshToken: expect.any(String), address: [{ network: 'evm', address: wallet.address }] },
    })
    const signed = await sandbox.post('/api/v2/wallet/sign-message', { network: 'local-1', message: 'x' }, restored.body.data.walletToken)
    expect(signed.status).toBe(200)
    // The session it came from is ended (the frame holds the new one): the next recovery goes on from that.
    expect((await recover({ secret0: wallet.secret0 }, fresh.walletToken)).status).toBe(401)
    expect((await recover({ secret0: wallet.secret0 }, restored.body.data.walletToken)).status).toBe(200)
  })

  test('a wrong secret, a missing one or a user without a wallet is refused', async () => {
    const wallet = await sandbox.signUp('recover2@example.com')
    const other = await sandbox.signUp('recover3@example.com')
    expect((await recover({ secret0: other.secret0 }, wallet.walletToken)).body).toEqual({
      status: 400,
      message: 'Recovery secret does not match this wallet',
      data: null,
    })
    expect((await recover({ secret0: 'nope' }, wallet.walletToken)).body.message).toBe('secret0 must be the 0x-hex recovery secret')
    expect((await recover({}, wallet.walletToken)).body.message).toBe('secret0 is required')
    expect((await recover({ secret0: wallet.secret0 }, 'garbage')).status).toBe(401)
    const noWallet = await login('never-created@example.com')
    expect((await recover({ secret0: wallet.secret0 }, noWallet.accessToken)).body).toEqual({ status: 404, message: 'Wallet not found', data: null })
    const json = await sandbox.post('/api/v2/account/recover', { secret0: wallet.secret0 }, wallet.walletToken)
    expect(json.body.message).toBe('Body must be form data with secret0 or the recovery file')
  })
})

describe('ramp account', () => {
  test('organization reports whether ramp is on', async () => {
    expect((await sandbox.call('/api/v2/organization')).body.data).toEqual({
      appId: 'demo',
      name: 'Wallet Kit Demo',
      isRampableEnabled: true,
      rampableClientSecret: 'demo-ramp-publishable',
    })
    expect((await sandbox.call('/api/v2/organization', { app: 'no-ramp' })).body.data).toEqual({
      appId: 'no-ramp',
      name: 'Wallet Kit Demo',
      isRampableEnabled: false,
      rampableClientSecret: null,
    })
    expect((await sandbox.call('/api/v2/organization', { app: 'ramp' })).body.data).toMatchObject({
      isRampableEnabled: true,
      rampableClientSecret: 'ramp-publishable-key',
    })
  })

  test('rampable/create opens it, refresh-rampable renews the token, later logins bring one along', async () => {
    const wallet = await sandbox.signUp('ramper@example.com', 'ramp')
    const opened = await sandbox.post('/api/v2/account/rampable/create', {}, wallet.walletToken, 'ramp')
    expect(opened.body).toEqual({ status: 200, message: 'OK', data: { rampableAccessToken: expect.any(String) } })
    const renewed = await sandbox.post(
      '/api/v2/wallet/refresh-rampable',
      { rampableAccessToken: opened.body.data.rampableAccessToken },
      wallet.walletToken,
      'ramp',
    )
    expect(renewed.body.data).toEqual({ rampableAccessToken: expect.any(String) })
    const again = await login('ramper@example.com', 'ramp')
    expect(again).toMatchObject({ isWalletCreated: true, rampableAccessToken: expect.any(String) })

    // Another user's ramp token, a wallet token in its place, and ramp on an app without it are refused.
    const other = await sandbox.signUp('ramper2@example.com', 'ramp')
    const foreign = await sandbox.post(
      '/api/v2/wallet/refresh-rampable',
      { rampableAccessToken: opened.body.data.rampableAccessToken },
      other.walletToken,
      'ramp',
    )
    expect(foreign.status).toBe(401)
    expect((await sandbox.post('/api/v2/wallet/refresh-rampable', { rampableAccessToken: wallet.walletToken }, wallet.walletToken, 'ramp')).status).toBe(401)
    const noRampWallet = await sandbox.signUp('no-ramp@example.com', 'no-ramp')
    expect((await sandbox.post('/api/v2/account/rampable/create', {}, noRampWallet.walletToken, 'no-ramp')).body).toEqual({
      status: 403,
      message: 'Rampable is not enabled for this app',
      data: null,
    })
  })

  test('account/create with rampable opens the ramp account at once', async () => {
    const first = await login('ramp-at-once@example.com', 'ramp')
    const created = await sandbox.post('/api/v2/account/create', { rampable: true }, first.accessToken, 'ramp')
    expect(created.body.data).toMatchObject({ walletToken: expect.any(String), rampableAccessToken: expect.any(String) })
  })
})
