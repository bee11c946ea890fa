// Upgrades the relay refuses before any socket exists: bad auth tokens, other paths, other hosts,
// too many sockets. Each refusal is a plain HTTP answer; the relay serves good clients throughout.
import { encodeJWT } from '@walletconnect/relay-auth'
import { decodeJWT } from '@walletconnect/relay-auth'
import WebSocket from 'ws'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { checkRelayAuth } from './auth.ts'
import { authToken, newKey, openSocket, rawClient, startTestRelay, type TestRelay, until } from './relay.fixture.ts'

let relay: TestRelay
beforeAll(async () => {
  relay = await startTestRelay({ socketsPerClient: 2 })
})
afterAll(() => relay?.close())

const now = () => Math.floor(Date.now() / 1000)

/** Opens the relay with this query (and headers), answers the HTTP status of a refusal or 101. */
async function upgrade(query: string, headers: Record<string, string> = {}, path = '/walletconnect') {
  const result = await openSocket(`ws://127.0.0.1:${relay.port}${path}${query}`, headers)
  if (typeof result === 'number') return result
  result.terminate()
  return 101
}

test.each([
  ['localhost', (port: number) => `ws://localhost:${port}/walletconnect`],
  ['127.0.0.1', (port: number) => `ws://127.0.0.1:${port}/walletconnect`],
  ['[::1]', (port: number) => `ws://[::1]:${port}/walletconnect`],
])('a token for the relay URL on %s is accepted', async (_, url) => {
  expect(await upgrade(`?auth=${await authToken(url(relay.port))}&projectId=p&ua=test&useOnCloseEvent=true`)).toBe(101)
})

test.each([
  ['no token', async () => ''],
  ['an empty token', async () => '?auth='],
  ['not a JWT', async () => '?auth=not-a-jwt'],
  ['three dots of garbage', async () => '?auth=a.b.c'],
  ['an expired token', async () => `?auth=${await authToken(relay.url, { iat: now() - 200, ttlSeconds: 100 })}`],
  ['a token issued in the future', async () => `?auth=${await authToken(relay.url, { iat: now() + 3600 })}`],
  // A token seen in a log or a proxy could be replayed for as long as its maker chose.
  ['a properly signed token that lives ten years', async () => `?auth=${await authToken(relay.url, { ttlSeconds: 10 * 365 * 86_400 })}`],
  ['a token for the public relay', async () => `?auth=${await authToken('wss://relay.walletconnect.org')}`],
  ['a token for another port', async () => `?auth=${await authToken(`ws://127.0.0.1:${relay.port + 1}/walletconnect`)}`],
  ['a token for another path', async () => `?auth=${await authToken(`ws://127.0.0.1:${relay.port}/`)}`],
  ['a token whose audience was changed after signing', async () => `?auth=${await tampered({ aud: relay.url }, 'wss://relay.walletconnect.org')}`],
  ['a token whose expiry was changed after signing', async () => `?auth=${await tampered({ exp: now() + 1e6 }, relay.url)}`],
  ['a token with HS256 in its header', async () => `?auth=${await withHeader({ alg: 'HS256', typ: 'JWT' })}`],
  ['a token whose issuer is not a did:key', async () => `?auth=${await withIssuer('did:web:example.com')}`],
])('%s: 401, no socket', async (_, query) => {
  expect(await upgrade(await query())).toBe(401)
})

/** A valid token for `aud`, whose payload is then changed without signing it again. */
async function tampered(change: Record<string, unknown>, aud: string) {
  const decoded = decodeJWT(await authToken(aud))
  return encodeJWT({ header: decoded.header, payload: { ...decoded.payload, ...change }, signature: decoded.signature })
}

async function withHeader(header: Record<string, string>) {
  const decoded = decodeJWT(await authToken(relay.url))
  return encodeJWT({ header: header as never, payload: decoded.payload, signature: decoded.signature })
}

async function withIssuer(iss: string) {
  const decoded = decodeJWT(await authToken(relay.url))
  return encodeJWT({ header: decoded.header, payload: { ...decoded.payload, iss }, signature: decoded.signature })
}

test('the audience must be exactly a relay URL of this sandbox, and the issuer the signing key', async () => {
  const url = relay.url
  expect(await checkRelayAuth(await authToken(url), [url])).toMatchObject({ ok: true, clientId: expect.stringMatching(/^did:key:z6Mk/) })
  expect(await checkRelayAuth(await authToken(`${url}/`), [url])).toEqual({ ok: false, reason: 'Auth audience is not this relay' })
  expect(await checkRelayAuth(await authToken(url.toUpperCase()), [url])).toEqual({ ok: false, reason: 'Auth audience is not this relay' })
  expect(await checkRelayAuth('x'.repeat(5000), [url])).toEqual({ ok: false, reason: 'Malformed auth token' })
})

test('upgrades on any other path are 404, whatever the token', async () => {
  const auth = `?auth=${await authToken(relay.url)}`
  for (const path of ['/', '/walletconnect/', '/walletconnect/x', '/WalletConnect', '/rpc/31337', '/api/v2/auth'])
    expect(await upgrade(auth, {}, path)).toBe(404)
})

test('an upgrade for another host name (DNS rebinding) is 421', async () => {
  const auth = `?auth=${await authToken(relay.url)}`
  expect(await upgrade(auth, { host: `evil.example:${relay.port}` })).toBe(421)
  expect(await upgrade(auth, { host: 'localhost:1' })).toBe(421)
})

test('one client id may hold only so many sockets at once', async () => {
  const key = newKey()
  const first = await rawClient(relay, { key })
  const second = await rawClient(relay, { key })
  expect(await upgrade(`?auth=${await authToken(relay.url, { key })}`)).toBe(429)
  first.close()
  await until(() => relay.relay.stats().sockets === 1)
  const third = await rawClient(relay, { key })
  for (const client of [second, third]) client.close()
  await Promise.all([second.closed, third.closed])
})

test('a refused upgrade leaves no socket behind, and the relay serves the next client', async () => {
  await until(() => relay.relay.stats().sockets === 0)
  const socket = new WebSocket(`${relay.url}?auth=bad`)
  const status = await new Promise<number>((resolve) => socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0)))
  expect(status).toBe(401)
  const client = await rawClient(relay)
  expect(await client.call('irn_subscribe', { topic: 'a'.repeat(64) })).toMatchObject({ result: expect.stringMatching(/^[0-9a-f]{64}$/) })
  expect(relay.relay.stats().sockets).toBe(1)
  client.close()
})
