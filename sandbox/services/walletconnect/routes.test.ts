// The relay inside a real sandbox: app config points the apps at it, it answers on every name and
// server the sandbox listens on, and stopping the sandbox drops its sockets.
import { lookup } from 'node:dns/promises'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox, testAppSettings } from '../../sandbox.fixture.ts'
import { upsertApp } from '../app-config/queries.ts'
import { authToken, openSocket, randomTopic, rawClient } from './relay.fixture.ts'

let sandbox: TestSandbox
const ipv6 = (await lookup('localhost', { all: true }).catch(() => [])).some((entry) => entry.address === '::1')

beforeAll(async () => {
  sandbox = await startTestSandbox()
  await upsertApp(sandbox.store, {
    appId: 'plain',
    name: 'No WalletConnect settings',
    environments: ['development'],
    clientSecret: null,
    allowedOrigins: [],
    settings: testAppSettings(),
  })
})
afterAll(() => sandbox?.dispose())

const relayUrl = () => `ws://localhost:${sandbox.port}/walletconnect`

test('app config points every app at the sandbox relay, with the sandbox project id', async () => {
  for (const [app, environment] of [
    ['demo', 'development'],
    ['demo', 'production'],
    ['plain', 'development'],
  ]) {
    const { status, body } = await sandbox.call('/api/v1/apps/config', { app, headers: { 'x-environment': environment! } })
    expect(status).toBe(200)
    expect(body.data.walletConnect).toEqual({ relayUrl: relayUrl(), projectId: 'wallet-kit-sandbox', testWallet: `${sandbox.url}/dev/wallet` })
  }
})

test('an app may name another relay and project id (a real deployment: the public relay)', async () => {
  const walletConnect = { relayUrl: 'wss://relay.walletconnect.org', projectId: '0123456789abcdef0123456789abcdef' }
  await upsertApp(sandbox.store, {
    appId: 'public',
    name: 'Public relay',
    environments: ['development'],
    clientSecret: null,
    allowedOrigins: [],
    settings: { ...testAppSettings(), walletConnect },
  })
  const { body } = await sandbox.call('/api/v1/apps/config', { app: 'public' })
  // No test wallet unless the app names one: a real deployment has no /dev/wallet.
  expect(body.data.walletConnect).toEqual({ ...walletConnect, testWallet: null })
})

// ::1 is bound only where localhost resolves to it too (http/listen.ts).
test.each(['localhost', '127.0.0.1', ...(ipv6 ? ['[::1]'] : [])])('the relay answers at ws://%s:<port>/walletconnect', async (host) => {
  const url = `ws://${host}:${sandbox.port}/walletconnect`
  const [a, b] = await Promise.all([rawClient({ url }), rawClient({ url })])
  const topic = randomTopic()
  await b.call('irn_subscribe', { topic })
  await a.call('irn_publish', { topic, message: `via ${host}`, ttl: 60 })
  expect((await b.next((frame) => frame.method === 'irn_subscription')).params.data.message).toBe(`via ${host}`)
  for (const client of [a, b]) client.close()
})

test('a bad token, another path or another host name: refused before any socket', async () => {
  const good = await authToken(relayUrl())
  expect(await openSocket(`${relayUrl()}?auth=${await authToken(relayUrl(), { ttlSeconds: -10 })}`)).toBe(401)
  expect(await openSocket(`${relayUrl()}?auth=${await authToken('wss://relay.walletconnect.org')}`)).toBe(401)
  expect(await openSocket(`ws://localhost:${sandbox.port}/rpc/31337?auth=${good}`)).toBe(404)
  expect(await openSocket(`${relayUrl()}?auth=${good}`, { host: `wallet.example:${sandbox.port}` })).toBe(421)
})

test('a plain GET of the relay path says it speaks WebSocket only', async () => {
  const response = await fetch(`${sandbox.url}/walletconnect`)
  expect(response.status).toBe(426)
  expect(response.headers.get('upgrade')).toBe('websocket')
})

test('stopping the sandbox drops the relay sockets instead of waiting for them', async () => {
  const client = await rawClient({ url: relayUrl() })
  const started = Date.now()
  await sandbox.dispose()
  expect(await client.closed).toBe(1006)
  expect(Date.now() - started).toBeLessThan(10_000)
})
