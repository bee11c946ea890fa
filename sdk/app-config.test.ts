import { beforeEach, describe, expect, test } from 'vitest'
import { type AppConfig, type ChainConfig, SdkError, accountSaltOf, createAppConfigClient, createClient, smartAccountContractsOf } from './index.ts'
import { onlyRequest, openRecorder } from './recorder.fixture.ts'

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

describe("a chain's smart-account contracts (smartAccountContractsOf)", () => {
  const named = {
    entryPoint: { address: '0x0000000071727De22E5E9d8BAf0edAc6f37da032', version: '0.7' },
    accountFactory: { address: '0x56CC0Ecf331Ed3f4b89088305C18416Fe352F7E7', accountType: 'solady', saltRule: 'ownerThenZeros' },
    accountImplementation: { address: '0x1111111111111111111111111111111111111111' },
    paymaster: { address: '0x2222222222222222222222222222222222222222', type: 'verifying' },
  } as const
  const chainWith = (contracts: object | undefined) => ({ chainId: 31337, ...(contracts && { contracts }) }) as Pick<ChainConfig, 'chainId' | 'contracts'>

  test('read from app config as sent, next to the other contracts; the client passes them through', async () => {
    const withContracts: AppConfig = {
      ...config,
      chains: [{ ...config.chains[0]!, contracts: { multicall3: { address: '0xcA11bde05977b3631167028862bE2a173976CA11' }, ...named } }],
    }
    await rec.rules({ method: 'GET', path: '/api/v1/apps/config', body: withContracts })
    const got = await createAppConfigClient({ appId: 'demo', baseUrls: rec.baseUrls }).get()
    expect(smartAccountContractsOf(got.chains[0]!)).toEqual(named)
  })

  test('a chain without them (a public chain, or only Multicall3): undefined', () => {
    expect(smartAccountContractsOf(chainWith(undefined))).toBeUndefined()
    expect(smartAccountContractsOf(chainWith({ multicall3: { address: '0xcA11bde05977b3631167028862bE2a173976CA11' } }))).toBeUndefined()
  })

  test.each([
    ['an address that is not one', { ...named, paymaster: { address: '0x1234', type: 'verifying' } }, 'paymaster'],
    ['one of the four missing', { ...named, accountImplementation: undefined }, 'accountImplementation'],
    ['an EntryPoint of another version', { ...named, entryPoint: { ...named.entryPoint, version: '0.6' } }, 'entryPoint.version'],
    ['a salt rule this sdk does not know', { ...named, accountFactory: { ...named.accountFactory, saltRule: 'owner' } }, 'accountFactory.saltRule'],
    ['another kind of account', { ...named, accountFactory: { ...named.accountFactory, accountType: 'kernel' } }, 'accountFactory.accountType'],
  ])('%s: an SdkError naming it, never a guess', (_, contracts, what) => {
    const error = (() => {
      try {
        return smartAccountContractsOf(chainWith(contracts))
      } catch (e) {
        return e
      }
    })() as SdkError
    expect(error).toBeInstanceOf(SdkError)
    expect([error.code, error.details]).toEqual(['INVALID_APP_CONFIG', { chainId: 31337, contract: what }])
  })

  test("the salt rule ownerThenZeros: the owner's 20 bytes, then 12 zero bytes", () => {
    expect(accountSaltOf('0xAbCdEf0123456789aBcDeF0123456789AbCdEf01')).toBe('0xabcdef0123456789abcdef0123456789abcdef01000000000000000000000000')
    expect(() => accountSaltOf('0x1234')).toThrow(SdkError)
  })
})
