import { renameSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createTestClient, http } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { upsertApp } from '../services/app-config/queries.ts'
import { startTestSandbox, testAppSettings, type TestSandbox } from '../test-sandbox.ts'

let sandbox: TestSandbox
const signTransaction = (tx: Parameters<ReturnType<typeof privateKeyToAccount>['signTransaction']>[0]) =>
  privateKeyToAccount(generatePrivateKey()).signTransaction(tx)

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
        google: { enabled: true, clientId: 'demo-google-client' },
        apple: { enabled: true, clientId: 'demo-apple-client', redirectUri: `${sandbox.url}/widget/oauth-callback.html` },
        telegram: { enabled: true, botId: '7000000001', botUsername: 'wallet_kit_demo_bot' },
        whatsapp: { enabled: true },
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

describe('rpc proxy and misc', () => {
  const rpc = (body: unknown, chainId = 31337) =>
    fetch(`${sandbox.url}/rpc/${chainId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://anywhere.example' },
      body: JSON.stringify(body),
    })

  test('forwards JSON-RPC to anvil with open CORS', async () => {
    const response = await rpc({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 7, result: '0x7a69' })
    const batch = await rpc([
      { jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] },
      { jsonrpc: '2.0', id: 2, method: 'net_version', params: [] },
    ])
    expect(await batch.json()).toMatchObject([
      { id: 1, result: '0x7a69' },
      { id: 2, result: '31337' },
    ])
    const second = await rpc({ jsonrpc: '2.0', id: 8, method: 'eth_chainId', params: [] }, 31338)
    expect(await second.json()).toEqual({ jsonrpc: '2.0', id: 8, result: '0x7a6a' })
  })

  test('refuses admin and unlocked-account methods, unknown chains and bad JSON', async () => {
    const refused = ['anvil_setBalance', 'anvil_impersonateAccount', 'evm_mine', 'hardhat_setBalance', 'debug_traceCall', 'personal_sign']
    for (const method of [...refused, 'txpool_content', 'eth_sendTransaction', 'eth_sign', 'eth_sendTransactionSync', 'eth_subscribe']) {
      const body = await (await rpc({ jsonrpc: '2.0', id: 1, method, params: [] })).json()
      expect(body.error.code).toBe(-32601)
    }
    expect((await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }, 1)).status).toBe(404)
    const parse = await fetch(`${sandbox.url}/rpc/31337`, { method: 'POST', body: '{nope' })
    expect((await parse.json()).error.code).toBe(-32700)
  })

  test('an unsigned transaction from another origin (a text/plain "simple" POST, no preflight) moves nothing, alone or in a batch', async () => {
    const balance = async () =>
      (await (await rpc({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [sandbox.faucetAddress, 'latest'] })).json()).result
    const before = await balance()
    expect(BigInt(before)).toBeGreaterThan(0n)
    const steal = {
      jsonrpc: '2.0',
      id: 2,
      method: 'eth_sendUnsignedTransaction',
      params: [{ from: sandbox.faucetAddress, to: '0x000000000000000000000000000000000000dEaD', value: '0xde0b6b3a7640000' }],
    }
    for (const chainId of [31337, 31338]) {
      const simple = await fetch(`${sandbox.url}/rpc/${chainId}`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
        body: JSON.stringify(steal),
      })
      expect(await simple.json()).toMatchObject({ id: 2, error: { code: -32601 } })
      const batch = await (await rpc([{ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }, steal], chainId)).json()
      expect(batch).toMatchObject([
        { id: 1, error: { code: -32601 } },
        { id: 2, error: { code: -32601 } },
      ])
    }
    expect(await balance()).toBe(before)
    const dead = await (await rpc({ jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: ['0x000000000000000000000000000000000000dEaD', 'latest'] })).json()
    expect(dead.result).toBe('0x0')
  })

  test('a read cannot pin the chain: gas above the block gas limit is refused, and no notification or flood holds a request', async () => {
    const loop = '0x5b600056' // JUMPDEST PUSH1 0 JUMP: runs until the gas is spent
    for (const method of ['eth_call', 'eth_estimateGas', 'eth_createAccessList']) {
      const body = await (await rpc({ jsonrpc: '2.0', id: 1, method, params: [{ data: loop, gas: '0xffffffffffff' }, 'latest'] })).json()
      expect(body.error).toMatchObject({ code: -32602, message: expect.stringContaining('gas') })
    }
    // At the cap, the loop runs out of gas at once and the chain still mines.
    const capped = await (await rpc({ jsonrpc: '2.0', id: 2, method: 'eth_call', params: [{ data: loop, gas: '0x1c9c380' }, 'latest'] })).json()
    expect(capped.error).toBeDefined()
    const notification = await rpc({ jsonrpc: '2.0', method: 'eth_chainId', params: [] })
    expect((await notification.json()).error).toMatchObject({ code: -32600 })
    const flood = await rpc(Array.from({ length: 101 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_blockNumber', params: [] })))
    expect((await flood.json()).error).toMatchObject({ code: -32600, message: expect.stringContaining('100') })
    const admin = createTestClient({ mode: 'anvil', transport: http(sandbox.chains[0]!.rpcUrl) })
    await admin.mine({ blocks: 1 })
  })

  test('the read allowlist and signed raw transactions are forwarded', async () => {
    const reads = await (
      await rpc([
        { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'eth_getLogs',
          params: [{ fromBlock: '0x0', toBlock: 'latest', address: '0x000000000000000000000000000000000000dEaD' }],
        },
        { jsonrpc: '2.0', id: 3, method: 'eth_gasPrice', params: [] },
        { jsonrpc: '2.0', id: 4, method: 'web3_clientVersion', params: [] },
      ])
    ).json()
    expect(reads).toMatchObject([
      { id: 1, result: expect.stringMatching(/^0x/) },
      { id: 2, result: [] },
      { id: 3, result: expect.stringMatching(/^0x/) },
      { id: 4, result: expect.any(String) },
    ])
    // A transaction signed by a fresh key reaches the chain, which judges it (no funds here).
    const raw = await signTransaction({
      chainId: 31337,
      to: '0x000000000000000000000000000000000000dEaD',
      value: 1n,
      gas: 21000n,
      maxFeePerGas: 10n ** 10n,
      maxPriorityFeePerGas: 1n,
      nonce: 0,
    })
    const sent = await (await rpc({ jsonrpc: '2.0', id: 5, method: 'eth_sendRawTransaction', params: [raw] })).json()
    expect(sent.error?.code).not.toBe(-32601)
    expect(sent.error?.message).toMatch(/fund/i)
  })

  test('health, unknown routes and the inbox page', async () => {
    expect(await (await fetch(`${sandbox.url}/health`)).json()).toEqual({ ok: true })
    const missing = await fetch(`${sandbox.url}/api/v2/nope`, { method: 'POST', headers: { 'x-app-id': 'demo', 'x-client-secret': 'demo-client-secret' } })
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ status: 404, message: 'Not found', data: null })
    const page = await fetch(`${sandbox.url}/dev/inbox`)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(await page.text()).toContain('<meta http-equiv="refresh"')
  })

  test('binds loopback only and answers on localhost', async () => {
    expect(sandbox.url).toMatch(/^http:\/\/localhost:\d+$/)
    const viaIp = await fetch(`http://127.0.0.1:${sandbox.port}/health`)
    expect(viaIp.status).toBe(200)
  })
})
