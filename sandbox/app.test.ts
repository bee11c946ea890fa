import { renameSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { upsertApp } from './services/app-config/queries.ts'
import { startTestSandbox, testAppSettings, type TestSandbox } from './sandbox.fixture.ts'

let sandbox: TestSandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
  await upsertApp(sandbox.store, {
    appId: 'partner',
    name: 'Partner',
    environments: ['production'],
    clientSecret: 'partner-secret',
    allowedOrigins: ['https://partner.example', 'https://*.partner.example'],
    settings: testAppSettings({ isEmbeddedWalletEnabled: false, logoUrl: 'https://partner.example/logo.png' }),
  })
})
afterAll(() => sandbox?.dispose())

describe('app config', () => {
  const contracts = {
    multicall3: { address: '0xcA11bde05977b3631167028862bE2a173976CA11' },
    demoToken: { address: '0x8464135c8F25Da09e49BC8782676a84730C318bC' },
    demoNft: { address: '0x71C95911E9a5D330f4D621842EC243EE1343292e' },
    demoMultiToken: { address: '0x948B3c65b89DF0B4894ABE91E6D02FE579834F8F' },
    // The smart-account contracts; the paymaster's address follows from the sandbox's own paymaster key.
    entryPoint: { address: '0x0000000071727De22E5E9d8BAf0edAc6f37da032', version: '0.7' },
    accountFactory: { address: '0x56CC0Ecf331Ed3f4b89088305C18416Fe352F7E7', accountType: 'solady', saltRule: 'ownerThenZeros' },
    accountImplementation: { address: '0x6B6a74A7B2dB87e900e291611727Bc56b57BbF7d' },
    paymaster: { address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), type: 'verifying' },
  }

  test('returns the demo app with the local chain proxied through the sandbox', async () => {
    const { status, body } = await sandbox.call('/api/v1/apps/config')
    expect(status).toBe(200)
    expect(body).toEqual({
      status: 200,
      message: 'OK',
      data: {
        appId: 'demo',
        name: 'Wallet Kit Demo',
        environment: 'development',
        isEmbeddedWalletEnabled: true,
        isAAEnabled: false,
        useWalletKitBrand: true,
        logoUrl: null,
        useEmailLogin: true,
        rampableClientSecret: 'demo-ramp-publishable',
        showPoweredBy: true,
        google: { enabled: true, clientId: 'demo-google-client', scriptUrl: `${sandbox.url}/oauth/google/gsi/client` },
        apple: {
          enabled: true,
          clientId: 'demo-apple-client',
          redirectUri: `${sandbox.url}/widget/oauth-callback.html`,
          scriptUrl: `${sandbox.url}/oauth/apple/appleid.auth.js`,
        },
        telegram: { enabled: true, botId: '7000000001', botUsername: 'wallet_kit_demo_bot', scriptUrl: `${sandbox.url}/telegram/telegram-widget.js` },
        whatsapp: { enabled: true },
        usernamePassword: { enabled: false },
        allowedOrigins: ['http://localhost:*', 'http://127.0.0.1:*'],
        chains: [
          {
            chainId: 31337,
            name: 'Local Chain 1',
            network: 'local-1',
            rpcUrls: [`${sandbox.url}/rpc/31337`],
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            testnet: true,
            contracts,
          },
          {
            chainId: 31338,
            name: 'Local Chain 2',
            network: 'local-2',
            rpcUrls: [`${sandbox.url}/rpc/31338`],
            nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
            testnet: true,
            contracts,
          },
        ],
        walletConnect: {
          relayUrl: `ws://localhost:${sandbox.port}/walletconnect`,
          projectId: 'wallet-kit-sandbox',
          testWallet: `http://localhost:${sandbox.port}/dev/wallet`,
        },
      },
    })
    expect(Object.keys(body.data).slice(0, 3)).toEqual(['appId', 'name', 'environment'])
  })

  test('production is its own data set', async () => {
    const { body } = await sandbox.call('/api/v1/apps/config', { headers: { 'x-environment': 'production' } })
    expect(body.data.environment).toBe('production')
  })

  test.each([
    ['missing app id', { app: null }, 400, 'App ID is not set'],
    ['unknown app', { app: 'nope' }, 404, 'App not found'],
    ['app only in another environment', { app: 'partner' }, 404, 'App not found'],
    ['bad environment', { headers: { 'x-environment': 'staging' } }, 400, 'Invalid environment'],
  ] as const)('%s', async (_, init, status, message) => {
    const response = await sandbox.call('/api/v1/apps/config', init)
    expect(response.status).toBe(status)
    expect(response.body).toEqual({ status, message, data: null })
  })
})

describe('CORS and origins', () => {
  test('reflects an origin the app allows on the app config, with the kit headers allowed', async () => {
    const preflight = await fetch(`${sandbox.url}/api/v1/apps/config`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-app-id' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(preflight.headers.get('access-control-allow-headers')).toBe('x-app-id, x-environment, authorization, content-type')

    const { status, headers } = await sandbox.call('/api/v1/apps/config', { headers: { origin: 'http://127.0.0.1:3000' } })
    expect(status).toBe(200)
    expect(headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:3000')
  })

  test('an origin allowed only by another app is refused for this app', async () => {
    const { status, headers, body } = await sandbox.call('/api/v1/apps/config', { headers: { origin: 'https://partner.example' } })
    expect(status).toBe(403)
    expect(body.message).toBe('Origin not allowed')
    expect(headers.get('access-control-allow-origin')).toBeNull()
    const partner = await sandbox.call('/api/v1/apps/config', {
      app: 'partner',
      headers: { origin: 'https://shop.partner.example', 'x-environment': 'production' },
    })
    expect(partner.status).toBe(200)
    expect(partner.headers.get('access-control-allow-origin')).toBe('https://shop.partner.example')
  })

  test('a preflight from an origin no app allows gets no CORS grant', async () => {
    const preflight = await fetch(`${sandbox.url}/api/v1/apps/config`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' },
    })
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
  })

  test('a wrong client secret is rejected, the right one accepted', async () => {
    const wrong = await sandbox.call('/api/v1/apps/config', { headers: { 'x-client-secret': 'guess' } })
    expect(wrong.status).toBe(401)
    const right = await sandbox.call('/api/v1/apps/config', { headers: { 'x-client-secret': 'demo-client-secret' } })
    expect(right.status).toBe(200)
  })

  test('the wallet service refuses an app without the embedded wallet', async () => {
    const { status, body } = await sandbox.call('/api/v2/wallet/refresh', {
      method: 'POST',
      app: 'partner',
      headers: { 'x-environment': 'production' },
      body: '{}',
    })
    expect(status).toBe(403)
    expect(body.message).toBe('Embedded wallet is not enabled')
  })
})

describe('static files', () => {
  // The rest of the frame's policy: widget-csp.test.ts.
  const frameAncestors = (response: Response) => response.headers.get('content-security-policy')?.match(/(?:^|; )frame-ancestors ([^;]*)/)?.[1]

  test('widget page carries frame-ancestors from the app config', async () => {
    const response = await fetch(`${sandbox.url}/widget/?appId=demo&v=1`)
    expect(response.status).toBe(200)
    expect(frameAncestors(response)).toBe('http://localhost:* http://127.0.0.1:*')
    expect(await response.text()).toContain('<title>widget</title>')
    const index = await fetch(`${sandbox.url}/widget/index.html?appId=partner`)
    expect(frameAncestors(index)).toBe('https://partner.example https://*.partner.example')
  })

  test.each([['/widget/?appId=unknown'], ['/widget/'], ['/widget/index.html?appId=demo&env=staging']])("%s is framed by 'none'", async (path) => {
    const response = await fetch(`${sandbox.url}${path}`)
    expect(frameAncestors(response)).toBe("'none'")
  })

  test('kit.js and assets are served with their types', async () => {
    const kit = await fetch(`${sandbox.url}/kit.js`)
    expect(kit.headers.get('content-type')).toMatch(/^text\/javascript/)
    expect(kit.headers.get('cache-control')).toBe('no-cache')
    expect(await kit.text()).toBe('window.kit = 1')
    const asset = await fetch(`${sandbox.url}/widget/assets/index-abc123.js`)
    expect(asset.status).toBe(200)
    expect(await asset.text()).toBe('export const widget = 1')
    expect((await fetch(`${sandbox.url}/widget/assets/missing.js`)).status).toBe(404)
    expect((await fetch(`${sandbox.url}/widget/assets/..%2f..%2fkit%2fkit.js`)).status).toBe(404)
  })

  test('without a build the pages answer 503', async () => {
    renameSync(sandbox.distDir, `${sandbox.distDir}-moved`)
    try {
      for (const path of ['/kit.js', '/widget/?appId=demo', '/widget/assets/index-abc123.js']) {
        const response = await fetch(`${sandbox.url}${path}`)
        expect(response.status).toBe(503)
        expect(await response.text()).toBe('Run npm run build first')
      }
    } finally {
      renameSync(`${sandbox.distDir}-moved`, sandbox.distDir)
    }
  })
})
