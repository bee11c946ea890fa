import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestSandbox, type CreatedWallet, type TestSandbox } from './sandbox.fixture.ts'

// Who may call what: the client secret of the wallet service, CORS, the Content-Type of JSON
// bodies and the Host header (DNS rebinding).

let sandbox: TestSandbox
let wallet: CreatedWallet
const hostPage = 'http://localhost:5173'

beforeAll(async () => {
  sandbox = await startTestSandbox()
  wallet = await sandbox.signUp('guard@example.com')
})
afterAll(() => sandbox?.dispose())

/** login-otp then verify-otp as one caller, with the given extra headers on both. */
async function logIn(email: string, headers: Record<string, string>, secret?: string | null) {
  const sent = await sandbox.call('/api/v2/auth/login-otp', {
    method: 'POST',
    secret,
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email }).toString(),
  })
  if (sent.status !== 200) return sent
  const [message] = (await sandbox.call(`/dev/api/inbox?to=${encodeURIComponent(email)}`)).body as { code: string }[]
  return sandbox.call('/api/v2/auth/verify-otp', {
    method: 'POST',
    secret,
    headers,
    body: JSON.stringify({ verificationToken: sent.body.data.verificationToken, otp: message!.code }),
  })
}

describe('wallet-service client secret', () => {
  test('the widget (own origin) logs in without a secret and may read the answer', async () => {
    for (const origin of [sandbox.url, `http://127.0.0.1:${sandbox.port}`]) {
      const login = await logIn(`widget-${new URL(origin).hostname}@example.com`, { origin }, null)
      expect(login.status).toBe(200)
      expect(login.body.data.accessToken).toEqual(expect.any(String))
      expect(login.headers.get('access-control-allow-origin')).toBe(origin)
    }
  })

  test("a host page's script without the secret is refused and granted no CORS", async () => {
    const sent = await logIn('host-script@example.com', { origin: hostPage }, null)
    expect(sent.status).toBe(401)
    expect(sent.body).toEqual({ status: 401, message: 'Client secret required', data: null })
    expect(sent.headers.get('access-control-allow-origin')).toBeNull()
    // Nor with a token it got some other way: no wallet call answers a host page.
    const address = await sandbox.call('/api/v2/wallet/address', {
      method: 'POST',
      secret: null,
      headers: { origin: hostPage, authorization: `Bearer ${wallet.walletToken}` },
      body: JSON.stringify({ network: 'local-1' }),
    })
    expect(address.status).toBe(401)
    expect(address.body.message).toBe('Client secret required')
    expect(address.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('a call with neither Origin nor secret is refused; with the secret it passes', async () => {
    const bare = await logIn('no-origin@example.com', {}, null)
    expect(bare.body).toEqual({ status: 401, message: 'Client secret required', data: null })
    const organization = await sandbox.call('/api/v2/organization', { secret: null })
    expect(organization.status).toBe(401)

    const backEnd = await logIn('back-end@example.com', {}, 'demo-client-secret')
    expect(backEnd.status).toBe(200)
    // A back end that also sends an Origin header is still served, though no browser may read it.
    const withOrigin = await logIn('back-end-origin@example.com', { origin: hostPage }, 'demo-client-secret')
    expect(withOrigin.status).toBe(200)
    expect(withOrigin.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('a wrong secret is refused, also from the own origin; an origin the app does not allow is refused', async () => {
    const wrong = await sandbox.call('/api/v2/organization', { secret: 'guess' })
    expect(wrong.body).toEqual({ status: 401, message: 'Invalid client secret', data: null })
    const wrongFromWidget = await sandbox.call('/api/v2/organization', { secret: 'guess', headers: { origin: sandbox.url } })
    expect(wrongFromWidget.status).toBe(401)
    const foreign = await sandbox.call('/api/v2/organization', { headers: { origin: 'https://evil.example' }, secret: 'demo-client-secret' })
    expect(foreign.body).toEqual({ status: 403, message: 'Origin not allowed', data: null })
  })

  test('/api/v2 preflights are granted to the own origin only, and never allow the secret header', async () => {
    const preflight = (origin: string, path = '/api/v2/auth/verify-otp') =>
      fetch(`${sandbox.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-app-id, content-type' },
      })
    const own = await preflight(sandbox.url)
    expect(own.headers.get('access-control-allow-origin')).toBe(sandbox.url)
    expect(own.headers.get('access-control-allow-headers')).not.toContain('x-client-secret')
    expect((await preflight(hostPage)).headers.get('access-control-allow-origin')).toBeNull()
    expect((await preflight(hostPage, '/api/v1/smart-account/balance/native')).headers.get('access-control-allow-origin')).toBeNull()
    expect((await preflight(hostPage, '/api/v1/apps/config')).headers.get('access-control-allow-origin')).toBe(hostPage)
    // The error of an unknown app is readable by the widget only.
    const unknown = await sandbox.call('/api/v2/organization', { app: 'nope', headers: { origin: hostPage } })
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get('access-control-allow-origin')).toBeNull()
    const unknownFromWidget = await sandbox.call('/api/v2/organization', { app: 'nope', headers: { origin: sandbox.url } })
    expect(unknownFromWidget.headers.get('access-control-allow-origin')).toBe(sandbox.url)
  })
})

describe('JSON bodies need Content-Type: application/json', () => {
  const permission = (headers: Record<string, string>, body?: string) =>
    fetch(`${sandbox.url}/dev/api/wallets/${wallet.address}/permission`, { method: 'POST', headers, ...(body === undefined ? {} : { body }) })
  const granted = async () =>
    (await sandbox.store.query<{ permission_granted: boolean }>('SELECT permission_granted FROM wallets WHERE address = $1', [wallet.address])).rows[0]!
      .permission_granted

  test('the /dev switch refuses what a cross-site form or no-cors fetch can send', async () => {
    const refused = { status: 415, message: 'Content-Type must be application/json', data: null }
    // fetch's default for a string body is text/plain, a "simple" type that needs no preflight.
    const plain = await fetch(`${sandbox.url}/dev/api/wallets/${wallet.address}/permission`, { method: 'POST', body: '{"granted":false}' })
    expect(plain.status).toBe(415)
    expect(await plain.json()).toEqual(refused)
    expect(await (await permission({ 'content-type': 'application/x-www-form-urlencoded' }, '{"granted":false}')).json()).toEqual(refused)
    expect((await permission({ 'content-type': 'multipart/form-data; boundary=x' }, '{"granted":false}')).status).toBe(415)
    expect((await permission({ 'content-type': 'application/jsonp' }, '{"granted":false}')).status).toBe(415)
    // A body-less POST reads as {} and changes nothing.
    expect((await (await permission({})).json()).message).toBe('granted must be a boolean')
    expect(await granted()).toBe(true)

    const json = await permission({ 'content-type': 'Application/JSON; charset=utf-8' }, '{"granted":false}')
    expect(await json.json()).toEqual({ address: wallet.address, isPermissionGranted: false })
    expect(await granted()).toBe(false)
    await permission({ 'content-type': 'application/json' }, '{"granted":true}')
    expect(await granted()).toBe(true)
  })

  test('the wallet service too; form-encoded login-otp and body-less calls keep working', async () => {
    const signed = await sandbox.call('/api/v2/wallet/sign-message', {
      method: 'POST',
      headers: { authorization: `Bearer ${wallet.walletToken}`, 'content-type': 'text/plain' },
      body: JSON.stringify({ network: 'local-1', message: 'x' }),
    })
    expect(signed.body).toEqual({ status: 415, message: 'Content-Type must be application/json', data: null })
    // An empty body with a form type is no more JSON than a full one.
    const emptyForm = await sandbox.call('/api/v2/account/rampable/create', {
      method: 'POST',
      headers: { authorization: `Bearer ${wallet.walletToken}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    })
    expect(emptyForm.status).toBe(415)
    const { code } = await sandbox.requestCode('form-login@example.com')
    expect(code).toMatch(/^\d{6}$/)
    // account/create with no body at all, as the sdk sends optional-only calls.
    const fresh = await logIn('no-body@example.com', {})
    const created = await sandbox.call('/api/v2/account/create', { method: 'POST', headers: { authorization: `Bearer ${fresh.body.data.accessToken}` } })
    expect(created.status).toBe(200)
  })
})

describe('Host header (DNS rebinding)', () => {
  /** A raw request to 127.0.0.1 with any Host header (fetch always derives it from the URL). */
  const withHost = (host: string | undefined, path = '/dev/api/inbox') =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: sandbox.port, path, setHost: false, headers: host === undefined ? {} : { host } }, (res) => {
        let body = ''
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.end()
    })

  test('answers its own names with its own port only', async () => {
    for (const host of [`localhost:${sandbox.port}`, `127.0.0.1:${sandbox.port}`, `[::1]:${sandbox.port}`, `LocalHost:${sandbox.port}`])
      expect((await withHost(host)).status, host).toBe(200)
    for (const host of [`rebind.evil.example:${sandbox.port}`, 'localhost', `localhost:${sandbox.port + 1}`, `localhost.evil.example:${sandbox.port}`]) {
      const answer = await withHost(host)
      expect(answer.status, host).toBe(421)
      expect(JSON.parse(answer.body)).toEqual({ status: 421, message: 'Unknown host', data: null })
    }
    // No Host at all: Node refuses the HTTP/1.1 request (400) before it reaches us.
    expect((await withHost(undefined)).status).toBe(400)
  })

  test('covers every route, not only /dev', async () => {
    for (const path of ['/health', '/api/v1/apps/config', '/api/v2/organization', '/widget/', '/telegram/login', '/rpc/31337'])
      expect((await withHost(`attacker.example:${sandbox.port}`, path)).status, path).toBe(421)
    expect((await withHost(`localhost:${sandbox.port}`, '/health')).status).toBe(200)
  })
})
