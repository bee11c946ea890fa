import { beforeEach, expect, test } from 'vitest'
import { type AppConfig, SdkError, createAppConfigClient, createClient } from './index.ts'
import { onlyRequest, openRecorder } from './test/recorder.ts'

const rec = await openRecorder()
beforeEach(() => rec.reset())

const config: AppConfig = {
  appId: 'demo',
  name: 'Demo',
  environment: 'development',
  isEmbeddedWalletEnabled: true,
  isAAEnabled: false,
  useWalletKitBrand: true,
  logoUrl: null,
  useEmailLogin: true,
  rampableClientSecret: null,
  showPoweredBy: true,
  google: { enabled: false, clientId: null },
  apple: { enabled: false, clientId: null, redirectUri: null },
  telegram: { enabled: false, botId: null, botUsername: null },
  whatsapp: { enabled: false },
  allowedOrigins: ['http://localhost:*'],
  chains: [
    {
      chainId: 31337,
      name: 'Local Chain 1',
      network: 'local-1',
      rpcUrls: ['http://localhost:8787/rpc/31337'],
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      testnet: true,
    },
  ],
  walletConnect: { relayUrl: 'ws://localhost:8787/walletconnect', projectId: 'wallet-kit-sandbox', testWallet: null },
}

test.each([
  ['sandbox', 'development'],
  ['production', 'production'],
] as const)('env %s: GET /api/v1/apps/config with x-app-id and x-environment %s', async (env, header) => {
  await rec.rules({ method: 'GET', path: '/api/v1/apps/config', body: config })
  const client = createClient({ appId: 'demo', env, baseUrls: rec.baseUrls })
  expect(await client.appConfig.get()).toEqual(config)
  const req = await onlyRequest(rec)
  expect([req.method, req.headers['x-app-id'], req.headers['x-environment'], req.body]).toEqual(['GET', 'demo', header, ''])
})

test('no app id: App ID is not set, and nothing is sent', async () => {
  const error = (await createAppConfigClient({ baseUrls: rec.baseUrls })
    .get()
    .catch((e) => e)) as SdkError
  expect(error).toBeInstanceOf(SdkError)
  expect(error.message).toBe('App ID is not set')
  expect(await rec.requests()).toHaveLength(0)
})

test('a non-OK answer: Failed to fetch app config, with the status and body', async () => {
  await rec.rules({ path: '/api/v1/apps/config', status: 404, message: 'App not found' })
  const error = (await createAppConfigClient({ appId: 'nope', baseUrls: rec.baseUrls })
    .get()
    .catch((e) => e)) as SdkError
  expect([error.message, error.code, error.details]).toEqual(['Failed to fetch app config', '404', { status: 404, message: 'App not found', data: null }])
})

test('an answer that is not JSON: Failed to fetch app config', async () => {
  await rec.rules({ path: '/api/v1/apps/config', raw: '<html>' })
  const error = (await createAppConfigClient({ appId: 'demo', baseUrls: rec.baseUrls })
    .get()
    .catch((e) => e)) as SdkError
  expect([error.message, error.code]).toEqual(['Failed to fetch app config', '200'])
})

test('the call takes an AbortSignal', async () => {
  await rec.rules({ path: '/api/v1/apps/config', delayMs: 3000, body: config })
  const controller = new AbortController()
  const pending = createAppConfigClient({ appId: 'demo', baseUrls: rec.baseUrls }).get({ signal: controller.signal })
  controller.abort()
  await expect(pending).rejects.toMatchObject({ code: 'ABORT_ERR' })
})
