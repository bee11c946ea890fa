import { createHash, createHmac } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRemoteJWKSet, decodeJwt, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { readSeed } from '../app-config/apps.ts'
import { upsertApp } from '../app-config/queries.ts'
import { formPost, startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

let sandbox: TestSandbox
let callback: string

beforeAll(async () => {
  sandbox = await startTestSandbox()
  callback = `${sandbox.url}/widget/oauth-callback.html`
  const demo = readSeed().find((seed) => seed.appId === 'demo')!
  await upsertApp(sandbox.store, { ...demo, appId: 'partner', settings: { ...demo.settings, google: { enabled: true, clientId: 'partner-google' } } })
})
afterAll(() => sandbox?.dispose())

const auth = (path: string, body: unknown, app?: string) => sandbox.post(`/api/v2/auth/${path}`, body, undefined, app)
/** The message a popup page posts to its opener (its JSON block). */
const posted = (html: string) => JSON.parse(/<script type="application\/json" id="message">(.*?)<\/script>/s.exec(html)![1]!)
const hiddenInputs = (html: string) =>
  Object.fromEntries([...html.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]!.replace(/&quot;/g, '"').replace(/&amp;/g, '&')]))

/** Walks the Google emulator as a browser would: authorize page, pick an identity, follow the redirect to the callback. */
async function googleCode(email: string, clientId = 'demo-google-client') {
  const query = new URLSearchParams({ client_id: clientId, redirect_uri: callback, state: 'state-1', nonce: 'nonce-1', response_type: 'code' })
  const pageResponse = await fetch(`${sandbox.url}/oauth/google/authorize?${query}`)
  expect(pageResponse.status).toBe(200)
  expect(await pageResponse.text()).toContain('Alice Example')
  const chosen = await fetch(`${sandbox.url}/oauth/google/authorize`, {
    ...formPost({ ...Object.fromEntries(query), response_mode: 'query', email, name: 'Test Person' }),
    redirect: 'manual',
  })
  expect(chosen.status).toBe(302)
  const location = chosen.headers.get('location')!
  expect(location.startsWith(`${callback}?`)).toBe(true)
  const callbackPage = await fetch(location)
  expect(callbackPage.headers.get('content-security-policy')).toMatch(/script-src 'sha256-/)
  const message = posted(await callbackPage.text())
  expect(message).toEqual({ data: { provider: 'google', code: expect.any(String), state: 'state-1' }, targetOrigin: sandbox.url })
  return message.data.code as string
}

describe('Google emulator', () => {
  test('discovery and JWKS are published, and the token endpoint issues verifiable ID tokens', async () => {
    const discovery = await (await fetch(`${sandbox.url}/oauth/google/.well-known/openid-configuration`)).json()
    expect(discovery).toMatchObject({ issuer: `${sandbox.url}/oauth/google`, jwks_uri: `${sandbox.url}/oauth/google/jwks` })
    const code = await googleCode('token-endpoint@example.com')
    const exchanged = await fetch(
      discovery.token_endpoint,
      formPost({ grant_type: 'authorization_code', code, redirect_uri: callback, client_id: 'demo-google-client' }),
    )
    const { id_token } = await exchanged.json()
    const { payload } = await jwtVerify(id_token, createRemoteJWKSet(new URL(discovery.jwks_uri)), { issuer: discovery.issuer, audience: 'demo-google-client' })
    expect(payload).toMatchObject({ email: 'token-endpoint@example.com', email_verified: true, nonce: 'nonce-1', sub: expect.stringMatching(/^\d{21}$/) })
    // Codes are single use.
    const again = await fetch(
      discovery.token_endpoint,
      formPost({ grant_type: 'authorization_code', code, redirect_uri: callback, client_id: 'demo-google-client' }),
    )
    expect(again.status).toBe(400)

    // The ID token logs in through the credential form of /auth/google.
    const login = await auth('google', { credential: id_token })
    expect(login.body.data).toEqual({ isWalletCreated: false, accessToken: expect.any(String), refreshToken: expect.any(String) })
  })

  test('the kit flow: code → /auth/google; the same Google account is the same user; e-mail logins join it', async () => {
    const first = await auth('google', { code: await googleCode('alice@example.com') })
    expect(first.body.data.isWalletCreated).toBe(false)
    const created = await sandbox.post('/api/v2/account/create', {}, first.body.data.accessToken)
    const again = await auth('google', { code: await googleCode('alice@example.com') })
    expect(again.body.data).toMatchObject({ isWalletCreated: true, addresses: [{ network: 'evm', address: created.body.data.address[0].address }] })
    const { verificationToken, code } = await sandbox.requestCode('alice@example.com')
    const byEmail = await auth('verify-otp', { verificationToken, otp: code })
    expect(byEmail.body.data.addresses).toEqual(again.body.data.addresses)
  })

  test('refuses a reused code, a token for another client, a foreign key, an expired token', async () => {
    const code = await googleCode('bob@example.com')
    expect((await auth('google', { code })).status).toBe(200)
    expect((await auth('google', { code })).body).toEqual({ status: 400, message: 'Invalid or expired Google authorization code', data: null })

    const partnerCode = await googleCode('bob@example.com', 'partner-google')
    const exchanged = await fetch(
      `${sandbox.url}/oauth/google/token`,
      formPost({ grant_type: 'authorization_code', code: partnerCode, redirect_uri: callback, client_id: 'partner-google' }),
    )
    const partnerToken = (await exchanged.json()).id_token
    expect((await auth('google', { credential: partnerToken })).body).toEqual({ status: 401, message: 'Google ID token rejected: aud mismatch', data: null })

    const claims = { ...decodeJwt(partnerToken), aud: 'demo-google-client' }
    const forger = await generateKeyPair('RS256')
    const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'x' }).sign(forger.privateKey)
    expect((await auth('google', { credential: forged })).body).toEqual({ status: 401, message: 'Invalid Google ID token', data: null })

    const realKey = JSON.parse(readFileSync(join(sandbox.dataDir, 'oidc-google.jwk.json'), 'utf8')) as JWK
    const { kid } = (await (await fetch(`${sandbox.url}/oauth/google/jwks`)).json()).keys[0]
    const expired = await new SignJWT({ ...claims, iat: 1_000_000, exp: 1_000_600 })
      .setProtectedHeader({ alg: 'RS256', kid })
      .sign(await importJWK(realKey, 'RS256'))
    expect((await auth('google', { credential: expired })).body).toEqual({ status: 401, message: 'Google ID token expired', data: null })
  })

  test.each([
    [{}, 400, 'Send either credential (an ID token) or code'],
    [{ credential: 'a', code: 'b' }, 400, 'Send either credential (an ID token) or code'],
    [{ credential: 42 }, 400, 'credential must be a string'],
    [{ credential: 'x.y.z', expiredDate: '2001-01-01' }, 400, 'expiredDate must be in the future'],
    [{ credential: 'x.y.z', extra: 1 }, 400, 'Unknown field in body: extra'],
  ])('/auth/google refuses %j', async (body, status, message) => {
    expect((await auth('google', body)).body).toEqual({ status, message, data: null })
  })

  test('an app without Google, an unknown client and a foreign redirect URI are refused', async () => {
    expect((await auth('google', { code: 'x' }, 'elsewhere')).body).toEqual({ status: 403, message: 'Google login is not enabled', data: null })
    const unknown = await fetch(`${sandbox.url}/oauth/google/authorize?client_id=nope&redirect_uri=${encodeURIComponent(callback)}`)
    expect(unknown.status).toBe(400)
    const evil = await fetch(`${sandbox.url}/oauth/google/authorize?client_id=demo-google-client&redirect_uri=${encodeURIComponent('https://evil.example/cb')}`)
    expect(evil.status).toBe(400)
    expect(await evil.text()).toContain('redirect_uri is not registered for this client')
  })
})

describe('Apple emulator', () => {
  test('form_post answer reaches the callback, whose ID token logs in through /auth/apple', async () => {
    const query = { client_id: 'demo-apple-client', redirect_uri: callback, state: 'apple-state', nonce: 'apple-nonce' }
    const chosen = await fetch(`${sandbox.url}/oauth/apple/authorize`, formPost({ ...query, email: 'carol@example.com', name: 'Carol Example' }))
    const html = await chosen.text()
    expect(chosen.headers.get('content-security-policy')).toContain(`form-action 'self' ${sandbox.url}`)
    const fields = hiddenInputs(html)
    expect(JSON.parse(fields.user!)).toEqual({ name: { firstName: 'Carol', lastName: 'Example' }, email: 'carol@example.com' })
    const landed = await fetch(callback, formPost(fields))
    const message = posted(await landed.text())
    expect(message.data).toEqual({ provider: 'apple', code: expect.any(String), state: 'apple-state', idToken: expect.any(String) })
    expect(decodeJwt(message.data.idToken)).toMatchObject({ iss: `${sandbox.url}/oauth/apple`, aud: 'demo-apple-client', nonce: 'apple-nonce' })

    const login = await auth('apple', { credential: message.data.idToken, expireDate: new Date(Date.now() + 3600_000).toISOString() })
    expect(login.body.data.isWalletCreated).toBe(false)
    // The Google endpoint does not take an Apple token.
    expect((await auth('google', { credential: message.data.idToken })).status).toBe(401)
  })
})

describe('Telegram emulator', () => {
  const botToken = readSeed().find((seed) => seed.appId === 'demo')!.secrets!.telegramBotToken!
  /** Telegram's documented check, written out independently of the sandbox's code. */
  const sign = (data: Record<string, string>) => {
    const checkString = Object.keys(data)
      .sort()
      .map((key) => `${key}=${data[key]}`)
      .join('\n')
    return createHmac('sha256', createHash('sha256').update(botToken).digest()).update(checkString).digest('hex')
  }

  test('the login page posts signed auth data to the opener origin, and /auth/telegram accepts it', async () => {
    const opener = 'http://localhost:5173'
    const shown = await fetch(`${sandbox.url}/telegram/login?bot_id=7000000001&origin=${encodeURIComponent(opener)}`)
    expect(await shown.text()).toContain('wallet_kit_demo_bot')
    const done = await fetch(
      `${sandbox.url}/telegram/login`,
      formPost({ bot_id: '7000000001', origin: opener, id: '4242', first_name: 'Dana', username: 'dana' }),
    )
    const message = posted(await done.text())
    expect(message.targetOrigin).toBe(opener)
    const { result } = message.data
    expect(message.data).toEqual({
      event: 'auth_result',
      provider: 'telegram',
      result: { id: '4242', first_name: 'Dana', username: 'dana', auth_date: expect.any(String), hash: expect.any(String) },
    })
    const { hash, ...fields } = result
    expect(hash).toBe(sign(fields))

    const login = await auth('telegram', { ...result, id: 4242, auth_date: Number(result.auth_date) })
    expect(login.body.data).toEqual({ isWalletCreated: false, accessToken: expect.any(String), refreshToken: expect.any(String) })
  })

  test("the opener's state rides through the page's forms into the posted message", async () => {
    const opener = 'http://localhost:5173'
    const state = 'Ab_9-'.repeat(25).slice(0, 128)
    const shown = await fetch(`${sandbox.url}/telegram/login?bot_id=7000000001&origin=${encodeURIComponent(opener)}&state=${state}`)
    const html = await shown.text()
    // Both test-user buttons and the typed-in form carry it.
    expect(html.split(`<input type="hidden" name="state" value="${state}">`).length - 1).toBe(3)
    const picked = html.match(/<form method="post" action="\/telegram\/login">.*?<\/form>/s)![0]
    const fields = hiddenInputs(picked)
    expect(fields).toMatchObject({ bot_id: '7000000001', origin: opener, state, id: '100000001' })

    const done = await fetch(`${sandbox.url}/telegram/login`, formPost(fields))
    const message = posted(await done.text())
    expect(message.targetOrigin).toBe(opener)
    expect(message.data).toEqual({
      event: 'auth_result',
      provider: 'telegram',
      state,
      result: expect.objectContaining({ id: '100000001', hash: expect.any(String) }),
    })
    expect(Object.keys(message.data)).toEqual(['event', 'provider', 'state', 'result'])
    expect((await auth('telegram', { ...message.data.result, id: 100000001, auth_date: Number(message.data.result.auth_date) })).status).toBe(200)
  })

  test.each([
    ['too long', 'a'.repeat(129)],
    ['a space', 'a b'],
    ['markup', '"><script>'],
    ['a dot', 'a.b'],
  ])('refuses a state with %s', async (_, state) => {
    const shown = await fetch(
      `${sandbox.url}/telegram/login?bot_id=7000000001&origin=${encodeURIComponent('http://localhost:5173')}&state=${encodeURIComponent(state)}`,
    )
    expect(shown.status).toBe(400)
    expect(await shown.text()).not.toContain(state)
    const posted = await fetch(
      `${sandbox.url}/telegram/login`,
      formPost({ bot_id: '7000000001', origin: 'http://localhost:5173', state, id: '4242', first_name: 'Dana' }),
    )
    expect(posted.status).toBe(400)
    expect(await posted.text()).not.toContain('auth_result')
  })

  test("the widget names the app's bot with the data (botUsername): that bot is accepted, another refused", async () => {
    const fresh = { id: '78', first_name: 'Finn', auth_date: String(Math.floor(Date.now() / 1000)) }
    const signed = { ...fresh, hash: sign(fresh) }
    expect((await auth('telegram', { ...signed, botUsername: 'wallet_kit_demo_bot' })).status).toBe(200)
    expect((await auth('telegram', { ...signed, botUsername: 'wallet_kit_smart_bot' })).body).toEqual({
      status: 400,
      message: "botUsername is not this app's Telegram bot",
      data: null,
    })
    expect((await auth('telegram', { ...signed, botUsername: 42 })).body.message).toBe("botUsername is not this app's Telegram bot")
  })

  test("app config names the stand-ins of the providers' sign-in scripts, served by the sandbox", async () => {
    const config = (await sandbox.call('/api/v1/apps/config')).body.data
    expect([config.google.scriptUrl, config.apple.scriptUrl, config.telegram.scriptUrl]).toEqual([
      `${sandbox.url}/oauth/google/gsi/client`,
      `${sandbox.url}/oauth/apple/appleid.auth.js`,
      `${sandbox.url}/telegram/telegram-widget.js`,
    ])
    for (const url of [config.google.scriptUrl, config.apple.scriptUrl, config.telegram.scriptUrl]) {
      const script = await fetch(url)
      expect(script.status).toBe(200)
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    }
    expect(config.usernamePassword).toEqual({ enabled: false })
  })

  test('refuses tampered data, an old auth_date, unknown fields, unknown bots and foreign origins', async () => {
    const fresh = { id: '77', first_name: 'Eve', auth_date: String(Math.floor(Date.now() / 1000)) }
    const signed = { ...fresh, hash: sign(fresh) }
    expect((await auth('telegram', { ...signed, first_name: 'Mallory' })).body).toEqual({ status: 401, message: 'Invalid Telegram login hash', data: null })
    const old = { ...fresh, auth_date: String(Math.floor(Date.now() / 1000) - 2 * 86400) }
    expect((await auth('telegram', { ...old, hash: sign(old) })).body).toEqual({ status: 401, message: 'Telegram login expired, sign in again', data: null })
    expect((await auth('telegram', { ...signed, is_admin: true })).body.message).toBe('Unknown field in body: is_admin')
    expect((await auth('telegram', { ...signed, hash: 'zz' })).body.message).toBe('hash must be 64 hex characters')
    expect((await auth('telegram', signed, 'elsewhere')).body).toEqual({ status: 403, message: 'Telegram login is not enabled', data: null })
    expect((await fetch(`${sandbox.url}/telegram/login?bot_id=1&origin=${encodeURIComponent('http://localhost:1')}`)).status).toBe(400)
    expect((await fetch(`${sandbox.url}/telegram/login?bot_id=7000000001&origin=${encodeURIComponent('https://evil.example')}`)).status).toBe(400)
  })
})
