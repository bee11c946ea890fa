import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// Attacks on minting an identity token, as a holder of the wrong credential or a page that writes
// the request body would try them. Each must get no token and a clear 4xx.

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

const identityToken = (bearer: string | undefined, body: unknown = {}, app = 'demo') => sandbox.post('/api/v2/wallet/identity-token', body, bearer, app)

describe('identity-token: attacks', () => {
  test("the access token of a login that holds a wallet is not a wallet token; a reused refresh token's session gets none", async () => {
    const { verificationToken, code } = await sandbox.requestCode('rt-identity-kinds@example.com')
    const accessToken = (await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })).body.data.accessToken as string
    const wallet = (await sandbox.post('/api/v2/account/create', {}, accessToken)).body.data
    // The login's access token, once its wallet exists: the same session, but not a wallet token.
    expect((await identityToken(accessToken)).body).toEqual({ status: 401, message: 'Invalid token', data: null })
    expect((await identityToken(wallet.walletToken)).status).toBe(200)
    // A refresh token copied and used twice ends the session it belongs to, and its wallet tokens with it.
    const refreshed = (await sandbox.post('/api/v2/wallet/refresh', { refreshToken: wallet.refreshToken })).body.data
    expect((await identityToken(refreshed.walletToken)).status).toBe(200)
    expect((await sandbox.post('/api/v2/wallet/refresh', { refreshToken: wallet.refreshToken })).status).toBe(401)
    expect((await identityToken(refreshed.walletToken)).body).toEqual({ status: 401, message: 'Session revoked', data: null })
  })

  test('a nonce with NUL, a line break, a bidi override or non-ASCII letters is refused; so is one smuggled under __proto__', async () => {
    const wallet = await sandbox.signUp('rt-identity-nonce@example.com')
    for (const nonce of ['\u0000aaaaaaaa', 'aaaaaaaa\n', 'aaaa\r\naaaa', 'abcd\u202eefgh', 'abcd\u200befgh', 'éééééééé']) {
      const answer = await identityToken(wallet.walletToken, { nonce })
      expect(answer.status).toBe(400)
      expect(answer.body.message).toMatch(/^nonce must (be 8 to 128 visible ASCII characters|not contain control characters)/)
      expect(answer.body.data).toBeNull()
    }
    expect((await identityToken(wallet.walletToken, { nonce: 'a'.repeat(100_000) })).status).toBe(413)
    const smuggled = await sandbox.call('/api/v2/wallet/identity-token', {
      method: 'POST',
      body: '{"__proto__":{"nonce":"proto-nonce-1"}}',
      headers: { authorization: `Bearer ${wallet.walletToken}`, 'content-type': 'application/json' },
    })
    expect(smuggled.status).toBe(400)
    // Duplicate keys: the last one is what is checked and what is signed, never the first.
    const duplicate = await sandbox.call('/api/v2/wallet/identity-token', {
      method: 'POST',
      body: '{"nonce":"first-nonce-1","nonce":"x"}',
      headers: { authorization: `Bearer ${wallet.walletToken}`, 'content-type': 'application/json' },
    })
    expect(duplicate.status).toBe(400)
  })

  test("one person's tokens for two apps name them by different ids, so two apps cannot join their users by sub", async () => {
    const inDemo = await sandbox.signUp('rt-identity-apps@example.com')
    const inSmart = await sandbox.signUp('rt-identity-apps@example.com', 'smart')
    const demo = decodeJwt((await identityToken(inDemo.walletToken)).body.data.identityToken)
    const smart = decodeJwt((await identityToken(inSmart.walletToken, {}, 'smart')).body.data.identityToken)
    expect([demo.aud, smart.aud]).toEqual(['demo', 'smart'])
    expect(demo.sub).not.toBe(smart.sub)
  })

  test('a nonce written as JSON stays one string claim: it adds or changes no other claim', async () => {
    const wallet = await sandbox.signUp('rt-identity-json-nonce@example.com')
    const honest = decodeJwt((await identityToken(wallet.walletToken)).body.data.identityToken)
    const nonce = '","sub":"someone-else","aud":"elsewhere","exp":9999999999,"x":"'
    const answer = await identityToken(wallet.walletToken, { nonce })
    expect(answer.status).toBe(200)
    const claims = decodeJwt(answer.body.data.identityToken)
    expect(claims).toMatchObject({ nonce, sub: honest.sub, aud: 'demo' })
    expect(claims.exp! - claims.iat!).toBe(600)
    expect(Object.keys(claims).sort()).toEqual([...Object.keys(honest), 'nonce'].sort())
  })

  test('a session the host capped (expireDate) gets no identity token that outlives the cap', async () => {
    const { verificationToken, code } = await sandbox.requestCode('rt-identity-capped@example.com')
    const login = await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
    const cap = new Date(Date.now() + 2 * 60_000)
    const wallet = (await sandbox.post('/api/v2/account/create', { expireDate: cap.toISOString() }, login.body.data.accessToken)).body.data
    const answer = (await identityToken(wallet.walletToken)).body.data
    const claims = decodeJwt(answer.identityToken)
    expect(claims.exp! * 1000).toBeLessThanOrEqual(cap.getTime())
    expect(Date.parse(answer.expiresAt)).toBe(claims.exp! * 1000)
    // An uncapped session's token lives its full ten minutes.
    const free = decodeJwt((await identityToken((await sandbox.signUp('rt-identity-uncapped@example.com')).walletToken)).body.data.identityToken)
    expect(free.exp! - free.iat!).toBe(600)
  })

  test('a broken signing key is a bare 500: no sealed key, no key material, no stack in the answer', async () => {
    const wallet = await sandbox.signUp('rt-identity-broken@example.com')
    const { rows } = await sandbox.store.query<{ kid: string; sealed_private_jwk: string }>(
      'SELECT kid, sealed_private_jwk FROM identity_keys WHERE activated_at IS NOT NULL ORDER BY activated_at DESC LIMIT 1',
    )
    const { kid, sealed_private_jwk: sealed } = rows[0]!
    const tampered = `${sealed.slice(0, -8)}AAAAAAAA`
    await sandbox.store.query('UPDATE identity_keys SET sealed_private_jwk = $2 WHERE kid = $1', [kid, tampered])
    try {
      const answer = await identityToken(wallet.walletToken)
      expect(answer.status).toBe(500)
      const text = JSON.stringify(answer.body)
      for (const secret of [sealed, tampered, sealed.slice(0, 24), '"d"', 'at '] as const) expect(text).not.toContain(secret)
    } finally {
      await sandbox.store.query('UPDATE identity_keys SET sealed_private_jwk = $2 WHERE kid = $1', [kid, sealed])
    }
    expect((await identityToken(wallet.walletToken)).status).toBe(200)
  })
})
