import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createClient } from '../../../sdk/index.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { identityTokenLifetimeSeconds } from './key-ring.ts'

// The identity token a signed-in user's session can ask for: who signed in, to which app, with
// which wallets and how, signed by the provider. Only a live session of that app gets one.

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

const identityToken = (walletToken: string | undefined, body: unknown = {}, app = 'demo') =>
  sandbox.post('/api/v2/wallet/identity-token', body, walletToken, app)
const jwks = async () => (await sandbox.call('/.well-known/jwks.json')).body as JSONWebKeySet
/** Verified as any JOSE library would: the published keys, ES256, issuer and audience. */
const verify = async (token: string, appId = 'demo') =>
  (await jwtVerify(token, createLocalJWKSet(await jwks()), { algorithms: ['ES256'], issuer: sandbox.url, audience: appId })).payload
const userIdOf = async (address: string) =>
  (await sandbox.store.query<{ user_id: string }>('SELECT user_id FROM wallets WHERE address = $1', [address])).rows[0]!.user_id

describe('POST /api/v2/wallet/identity-token', () => {
  test("a signed-in user's session gets an ES256 token naming the app, the user, the wallet and the sign-in method", async () => {
    const wallet = await sandbox.signUp('identity@example.com')
    const answer = await identityToken(wallet.walletToken)
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expect(answer.body).toEqual({ status: 200, message: 'OK', data: { identityToken: expect.any(String), expiresAt: expect.any(String) } })
    const token = answer.body.data.identityToken as string
    const header = decodeProtectedHeader(token)
    expect(header).toEqual({ alg: 'ES256', kid: expect.any(String), typ: 'wallet-kit-identity+jwt' })
    expect((await jwks()).keys.map((key) => key.kid)).toContain(header.kid)
    const payload = await verify(token)
    expect(payload).toEqual({
      iss: sandbox.url,
      aud: 'demo',
      sub: await userIdOf(wallet.address),
      iat: expect.any(Number),
      exp: expect.any(Number),
      jti: expect.stringMatching(/^[0-9a-f-]{36}$/),
      environment: 'development',
      wallet_address: wallet.address,
      smart_accounts: [],
      sign_in_method: 'email',
    })
    expect(payload.exp! - payload.iat!).toBe(identityTokenLifetimeSeconds)
    expect(new Date(answer.body.data.expiresAt).getTime()).toBe(payload.exp! * 1000)
    // Each token is its own: a server that wants to see one once can keep its jti.
    expect(decodeJwt((await identityToken(wallet.walletToken)).body.data.identityToken).jti).not.toBe(payload.jti)
  })

  test('names the sign-in method of the session: password, recovery file; the same user in every session', async () => {
    expect((await sandbox.post('/api/v2/auth/register', { username: 'identity-user', password: 'long enough pw' })).status).toBe(200)
    const login = (await sandbox.post('/api/v2/auth/login', { username: 'identity-user', password: 'long enough pw' })).body.data
    const created = (await sandbox.post('/api/v2/account/create', {}, login.accessToken)).body.data
    const byPassword = await verify((await identityToken(created.walletToken)).body.data.identityToken)
    expect(byPassword).toMatchObject({ sign_in_method: 'password', wallet_address: created.address[0].address })
    // A refreshed wallet token is the same session, begun the same way.
    const refreshed = (await sandbox.post('/api/v2/wallet/refresh', { refreshToken: created.refreshToken })).body.data
    expect(await verify((await identityToken(refreshed.walletToken)).body.data.identityToken)).toMatchObject({ sign_in_method: 'password' })

    // A recovery starts a session of its own (and ends this one).
    const recovered = await sandbox.call('/api/v2/account/recover', {
      method: 'POST',
      body: new URLSearchParams({ secret0: created.secret0 }).toString(),
      headers: { authorization: `Bearer ${created.walletToken}`, 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(recovered.status).toBe(200)
    const byRecovery = await verify((await identityToken(recovered.body.data.walletToken)).body.data.identityToken)
    expect(byRecovery).toMatchObject({ sign_in_method: 'recovery', sub: byPassword.sub })
  })

  test("lists the user's smart accounts of this app once they exist", async () => {
    const owner = await sandbox.signUp('identity-smart@example.com', 'smart')
    const before = await verify((await identityToken(owner.walletToken, {}, 'smart')).body.data.identityToken, 'smart')
    expect(before.smart_accounts).toEqual([])
    const sdk = createClient({ appId: 'smart', env: 'sandbox', clientSecret: 'smart-client-secret', baseUrls: { smartAccount: `${sandbox.url}/api/v1` } })
    const { accounts } = await sdk.smartAccount.create({ owner: { id: owner.address, provider: 'email' } })
    expect(accounts.length).toBeGreaterThan(0)
    const after = await verify((await identityToken(owner.walletToken, {}, 'smart')).body.data.identityToken, 'smart')
    expect(after).toMatchObject({ aud: 'smart', wallet_address: owner.address })
    expect(after.smart_accounts).toEqual(accounts.map((account) => ({ chain_id: account.chainId, address: account.aaAddress })))
  })

  test('carries the nonce the page asked with; refuses a malformed one and unknown fields', async () => {
    const wallet = await sandbox.signUp('identity-nonce@example.com')
    const nonce = 'host-server-nonce-4f1c2a'
    expect(await verify((await identityToken(wallet.walletToken, { nonce })).body.data.identityToken)).toMatchObject({ nonce })
    for (const bad of ['short', 'x'.repeat(129), 'with space inside', 12345678, null])
      expect((await identityToken(wallet.walletToken, { nonce: bad })).body).toEqual({
        status: 400,
        message: 'nonce must be 8 to 128 visible ASCII characters',
        data: null,
      })
    expect((await identityToken(wallet.walletToken, { audience: 'other-app' })).body).toEqual({
      status: 400,
      message: 'Unknown field in body: audience',
      data: null,
    })
  })

  test('no session, or a token that is not a live wallet token of this app, gets no token', async () => {
    const wallet = await sandbox.signUp('identity-refused@example.com')
    expect((await identityToken(undefined)).body).toEqual({ status: 401, message: 'Missing bearer token', data: null })
    expect((await identityToken('x.y.z')).body).toEqual({ status: 401, message: 'Invalid token', data: null })
    // A refresh token, an access token of a login without a wallet, an identity token: not wallet tokens.
    expect((await identityToken(wallet.refreshToken)).status).toBe(401)
    const { verificationToken, code } = await sandbox.requestCode('identity-no-wallet@example.com')
    const accessToken = (await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })).body.data.accessToken
    expect((await identityToken(accessToken)).body).toEqual({ status: 401, message: 'Invalid token', data: null })
    const identity = (await identityToken(wallet.walletToken)).body.data.identityToken
    expect((await identityToken(identity)).body).toEqual({ status: 401, message: 'Invalid token', data: null })
    // Another app's wallet token, presented as this app.
    const elsewhere = await sandbox.signUp('identity-refused@example.com', 'elsewhere')
    expect((await identityToken(elsewhere.walletToken, {}, 'demo')).body).toEqual({ status: 401, message: 'Invalid token', data: null })
  })

  test('a logged-out session gets no token', async () => {
    const wallet = await sandbox.signUp('identity-logout@example.com')
    expect((await identityToken(wallet.walletToken)).status).toBe(200)
    expect((await sandbox.post('/api/v2/wallet/logout', { refreshToken: wallet.refreshToken }, wallet.walletToken)).status).toBe(200)
    expect((await identityToken(wallet.walletToken)).body).toEqual({ status: 401, message: 'Session revoked', data: null })
  })

  test("the app's checks of the wallet service: the widget by its origin, a back end with the secret, no host page", async () => {
    const wallet = await sandbox.signUp('identity-callers@example.com')
    const call = (headers: Record<string, string>, secret?: string | null) =>
      sandbox.call('/api/v2/wallet/identity-token', {
        method: 'POST',
        body: '{}',
        secret,
        headers: { authorization: `Bearer ${wallet.walletToken}`, ...headers },
      })
    const widget = await call({ origin: sandbox.url }, null)
    expect(widget.status).toBe(200)
    expect(widget.headers.get('access-control-allow-origin')).toBe(sandbox.url)
    expect((await call({}, 'wrong-secret')).body).toEqual({ status: 401, message: 'Invalid client secret', data: null })
    expect((await call({}, null)).body).toEqual({ status: 401, message: 'Client secret required', data: null })
    // A page the app allows still cannot ask the service itself: the token comes through the frame.
    const host = await call({ origin: 'http://localhost:5173' }, null)
    expect(host.status).toBe(401)
    expect(host.headers.get('access-control-allow-origin')).toBeNull()
  })
})
