import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { softwareAuthenticator } from './authenticator.fixture.ts'
import { passkeyStepUp } from './passkey-step-up.fixture.ts'

// Passkeys with the provider's origin as relying party: a signed-in user adds one, signs in with it
// later (the same login answer as the other methods, recorded as `passkey`), lists and removes them.
// Adding and removing each take a step-up proof (passkey-step-up.test.ts tests the refusals).

let sandbox: TestSandbox
let stepUp: ReturnType<typeof passkeyStepUp>
beforeAll(async () => {
  sandbox = await startTestSandbox()
  stepUp = passkeyStepUp(sandbox)
})
afterAll(() => sandbox?.dispose())

const get = (path: string, token: string) => sandbox.call(path, { headers: { authorization: `Bearer ${token}` } })
/** A user with a wallet, an authenticator, and one passkey registered on it. */
async function withPasskey(email: string) {
  const wallet = await sandbox.signUp(email)
  const user = { email, walletToken: wallet.walletToken }
  const authenticator = softwareAuthenticator({ origin: sandbox.url })
  const options = await stepUp.options(user)
  expect(options.status).toBe(200)
  const registered = await sandbox.post(
    '/api/v2/wallet/passkeys',
    { credential: authenticator.register(options.body.data), name: 'Laptop' },
    wallet.walletToken,
  )
  expect(registered.status).toBe(200)
  return { wallet, user, authenticator, passkey: registered.body.data.passkey as { id: string } }
}

const signIn = async (authenticator: ReturnType<typeof softwareAuthenticator>) => {
  const options = await sandbox.post('/api/v2/auth/passkey/options', {})
  expect(options.status).toBe(200)
  return sandbox.post('/api/v2/auth/passkey/verify', { credential: authenticator.assert(options.body.data) })
}

describe('passkeys', () => {
  test('registration options name the provider as relying party, require a resident key and user verification, and leave out the passkeys the user has', async () => {
    const { user, passkey } = await withPasskey('passkey-options@example.com')
    const options = (await stepUp.options(user)).body.data
    expect(options).toMatchObject({
      rp: { id: 'localhost' },
      user: { name: 'passkey-options@example.com' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: [{ id: passkey.id, type: 'public-key' }],
    })
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{32,}$/)
    const signIn = (await sandbox.post('/api/v2/auth/passkey/options', {})).body.data
    expect(signIn).toMatchObject({ rpId: 'localhost', userVerification: 'required' })
    expect(signIn.allowCredentials ?? []).toEqual([])
  })

  test('signs in with the passkey: the login answer of the other methods, for the same wallet, recorded as a passkey sign-in; the counter moves on', async () => {
    const { wallet, authenticator, passkey } = await withPasskey('passkey-login@example.com')
    const answer = await signIn(authenticator)
    expect(answer.status).toBe(200)
    expect(answer.body.data).toEqual({
      isWalletCreated: true,
      walletToken: expect.any(String),
      refreshToken: expect.any(String),
      addresses: [{ network: 'evm', address: wallet.address }],
    })
    const minted = await sandbox.post('/api/v2/wallet/identity-token', {}, answer.body.data.walletToken)
    const jwks = (await sandbox.call('/.well-known/jwks.json')).body as JSONWebKeySet
    const { payload } = await jwtVerify(minted.body.data.identityToken, createLocalJWKSet(jwks), { issuer: sandbox.url, audience: 'demo' })
    expect(payload).toMatchObject({ sign_in_method: 'passkey', wallet_address: wallet.address })

    const listed = (await get('/api/v2/wallet/passkeys', wallet.walletToken)).body.data.passkeys
    expect(listed).toEqual([{ id: passkey.id, name: 'Laptop', createdAt: expect.any(String), lastUsedAt: expect.any(String), backedUp: false }])
    const { rows } = await sandbox.store.query<{ counter: string }>('SELECT counter FROM passkey_credentials WHERE credential_id = $1', [passkey.id])
    expect(Number(rows[0]!.counter)).toBe(1)
    expect((await signIn(authenticator)).status).toBe(200)
  })

  test('lists only the caller’s passkeys and removes one; a removed passkey signs in no more', async () => {
    const { wallet, user, authenticator, passkey } = await withPasskey('passkey-remove@example.com')
    const options = await stepUp.options(user)
    const second = await sandbox.post('/api/v2/wallet/passkeys', { credential: authenticator.register(options.body.data) }, wallet.walletToken)
    expect(second.body.data.passkey).toMatchObject({ name: 'Passkey' })
    expect((await get('/api/v2/wallet/passkeys', wallet.walletToken)).body.data.passkeys.map((p: { id: string }) => p.id)).toEqual([
      passkey.id,
      second.body.data.passkey.id,
    ])

    expect((await stepUp.removeWithProof(user, passkey.id)).body).toEqual({ status: 200, message: 'OK', data: { removed: true } })
    expect((await get('/api/v2/wallet/passkeys', wallet.walletToken)).body.data.passkeys.map((p: { id: string }) => p.id)).toEqual([
      second.body.data.passkey.id,
    ])
    expect((await stepUp.removeWithProof(user, passkey.id)).status).toBe(404)
    const options2 = await sandbox.post('/api/v2/auth/passkey/options', {})
    const refused = await sandbox.post('/api/v2/auth/passkey/verify', { credential: authenticator.assert(options2.body.data, authenticator.credentials[0]) })
    expect(refused.status).toBe(401)
    expect(refused.body.message).toMatch(/not registered/)
    expect(refused.body.data ?? null).toBeNull()
    // The one kept still works.
    expect((await signIn(authenticator)).status).toBe(200)
  })

  test('the widget lists them with a same-origin GET (no Origin header, no secret); another site’s GET is refused', async () => {
    const { wallet, passkey } = await withPasskey('passkey-widget-list@example.com')
    const list = (site: string) =>
      sandbox.call('/api/v2/wallet/passkeys', { secret: null, headers: { authorization: `Bearer ${wallet.walletToken}`, 'sec-fetch-site': site } })
    const own = await list('same-origin')
    expect(own.status).toBe(200)
    expect(own.body.data.passkeys.map((p: { id: string }) => p.id)).toEqual([passkey.id])
    for (const site of ['cross-site', 'same-site', 'none']) expect((await list(site)).body).toMatchObject({ status: 401, message: 'Client secret required' })
    // Only a read: a same-origin claim on a removal still needs the Origin a browser sends with it.
    const removal = await sandbox.call(`/api/v2/wallet/passkeys/${passkey.id}`, {
      method: 'DELETE',
      secret: null,
      headers: { authorization: `Bearer ${wallet.walletToken}`, 'sec-fetch-site': 'same-origin' },
    })
    expect(removal.status).toBe(401)
  })

  test('managing passkeys takes a wallet token: none, a login’s access token or a logged-out session’s gets 401', async () => {
    expect((await sandbox.post('/api/v2/wallet/passkeys/options', {})).status).toBe(401)
    expect((await sandbox.call('/api/v2/wallet/passkeys')).status).toBe(401)
    const { verificationToken, code } = await sandbox.requestCode('passkey-access@example.com')
    const login = (await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })).body.data
    expect((await sandbox.post('/api/v2/wallet/passkeys/options', {}, login.accessToken)).status).toBe(401)
    const wallet = await sandbox.signUp('passkey-logout@example.com')
    await sandbox.post('/api/v2/wallet/logout', {}, wallet.walletToken)
    expect((await get('/api/v2/wallet/passkeys', wallet.walletToken)).status).toBe(401)
  })
})
