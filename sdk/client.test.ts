import { expect, test } from 'vitest'
import { SdkError, createClient, createContainer, environmentHeader, hosts, resolveBaseUrls } from './index.ts'
import { openRecorder } from './recorder.fixture.ts'

test('one host table, keyed by env; sandbox defaults to the local sandbox server, production to nothing (hosts.test.ts)', () => {
  expect(resolveBaseUrls('sandbox')).toEqual({
    wallet: 'http://localhost:8787/api/v2',
    smartAccount: 'http://localhost:8787/api/v1',
    ramp: 'http://localhost:8787/v1',
    appConfig: 'http://localhost:8787/api/v1',
  })
  expect(hosts.production).toEqual({})
  const production = { wallet: 'https://w.example/api/v2', smartAccount: 'https://w.example/api/v1', appConfig: 'https://w.example/api/v1' }
  expect(resolveBaseUrls('production', { ...production, ramp: 'https://ramp.example/v1/' }).ramp).toBe('https://ramp.example/v1')
  expect([environmentHeader('sandbox'), environmentHeader('production'), environmentHeader()]).toEqual(['development', 'production', 'development'])
})

test('createClient: env defaults to sandbox, one token holder shared by every service', async () => {
  const rec = await openRecorder()
  await rec.rules(
    { path: '/api/v2/auth/verify-otp', body: { isWalletCreated: true, walletToken: 'wt', refreshToken: 'rt', addresses: [] } },
    { path: '/api/v2/wallet/address', body: { address: '0xA' } },
  )
  const client = createClient({ appId: 'demo', baseUrls: rec.baseUrls })
  expect(client.env).toBe('sandbox')
  await client.auth.verifyOtp({ verificationToken: 'v', otp: '1' })
  await client.wallet.address({ network: 'local-1' })
  const [, wallet] = await rec.requests()
  expect(wallet!.headers.authorization).toBe('Bearer wt')
  client.tokens.clear()
  expect(client.tokens.get()).toEqual({})
})

test('services by name; a missing one: Service <name> not found in container', () => {
  const client = createClient()
  expect(client.get('wallet')).toBe(client.wallet)
  const error = (() => {
    try {
      client.get('nft')
    } catch (e) {
      return e as SdkError
    }
  })()
  expect(error).toBeInstanceOf(SdkError)
  expect(error?.message).toBe('Service nft not found in container')
  let built = 0
  const container = createContainer({ one: () => ++built })
  expect([container.has('one'), container.has('two'), built]).toEqual([true, false, 0])
  expect([container.get('one'), container.get('one'), built]).toEqual([1, 1, 1])
})

test('tokens: set merges, undefined removes, clear by key, subscribe and unsubscribe', () => {
  const { tokens } = createClient()
  const seen: object[] = []
  const stop = tokens.subscribe((t) => seen.push(t))
  tokens.set({ walletToken: 'w', refreshToken: 'r', rampAccessToken: 'ra', rampClientSecret: 'rs' })
  tokens.set({ refreshToken: undefined })
  tokens.clear(['rampAccessToken'])
  stop()
  tokens.set({ walletToken: 'w2' })
  expect(seen).toEqual([
    { walletToken: 'w', refreshToken: 'r', rampAccessToken: 'ra', rampClientSecret: 'rs' },
    { walletToken: 'w', rampAccessToken: 'ra', rampClientSecret: 'rs' },
    { walletToken: 'w', rampClientSecret: 'rs' },
  ])
  expect(tokens.get()).toEqual({ walletToken: 'w2', rampClientSecret: 'rs' })
})
