import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { providerScriptUrls } from '../../../sdk/sign-in-scripts.ts'
import { upsertApp } from '../app-config/queries.ts'
import { startTestSandbox, testAppSettings, type TestSandbox } from '../../sandbox.fixture.ts'

/**
 * The wallet frame's Content-Security-Policy, directive by directive: it holds the session, so
 * whatever runs in it (a bad dependency, an injected script) can neither load code nor send
 * anything anywhere but the provider and the chains' RPC URLs.
 */
let sandbox: TestSandbox

beforeAll(async () => {
  sandbox = await startTestSandbox()
  await upsertApp(sandbox.store, {
    appId: 'branded',
    name: 'Branded',
    environments: ['production'],
    clientSecret: 'branded-secret',
    allowedOrigins: ['https://branded.example'],
    settings: testAppSettings({ logoUrl: 'https://cdn.branded.example/brand/logo.png' }),
  })
  // The providers' own sign-in scripts (production-like settings).
  await upsertApp(sandbox.store, {
    appId: 'providers',
    name: 'Providers',
    environments: ['production'],
    clientSecret: 'providers-secret',
    allowedOrigins: ['https://providers.example'],
    settings: testAppSettings({
      google: { enabled: true, clientId: 'g', scriptUrl: providerScriptUrls.google },
      apple: { enabled: true, clientId: 'a', redirectUri: 'https://providers.example/apple', scriptUrl: providerScriptUrls.apple },
      telegram: { enabled: true, botId: '7', botUsername: 'b', scriptUrl: providerScriptUrls.telegram },
    }),
  })
  // Settings edited in the database past the seed's check: another script, a switched-off provider.
  await upsertApp(sandbox.store, {
    appId: 'tampered',
    name: 'Tampered',
    environments: ['production'],
    clientSecret: 'tampered-secret',
    allowedOrigins: ['https://tampered.example'],
    settings: testAppSettings({
      google: { enabled: true, clientId: 'g', scriptUrl: 'https://cdn.attacker.example/gsi/client' },
      telegram: { enabled: false, botId: '7', botUsername: 'b', scriptUrl: providerScriptUrls.telegram },
    }),
  })
})
afterAll(() => sandbox?.dispose())

/** The header split into its directives, each to its list of sources. */
async function policyOf(path: string): Promise<Record<string, string[]>> {
  const response = await fetch(`${sandbox.url}${path}`)
  expect(response.status).toBe(200)
  const header = response.headers.get('content-security-policy') ?? ''
  const directives = header.split(';').map((d) => d.trim().split(/\s+/))
  const policy = Object.fromEntries(directives.map(([name, ...sources]) => [name, sources]))
  expect(Object.keys(policy)).toHaveLength(directives.length) // no directive twice
  return policy
}

describe('the wallet frame CSP', () => {
  test('every directive for the demo app', async () => {
    const rpc = new URL(sandbox.url).origin // the chains' RPC URLs: the sandbox's /rpc/<chainId>
    const relay = rpc.replace(/^http/, 'ws') // the WalletConnect relay: the sandbox's /walletconnect
    expect(await policyOf('/widget/?appId=demo&env=sandbox')).toEqual({
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'"],
      'img-src': ["'self'", 'data:', sandbox.url],
      'connect-src': ["'self'", rpc, relay],
      'object-src': ["'none'"],
      'base-uri': ["'none'"],
      'frame-ancestors': ['http://localhost:*', 'http://127.0.0.1:*'],
    })
  })

  test("the app's logo is the one image from elsewhere", async () => {
    const policy = await policyOf('/widget/index.html?appId=branded&env=production')
    expect(policy['img-src']).toEqual(["'self'", 'data:', sandbox.url, 'https://cdn.branded.example'])
    expect(policy['frame-ancestors']).toEqual(['https://branded.example'])
    expect(policy['script-src']).toEqual(["'self'"])
  })

  test("the providers' own sign-in scripts, each by its exact URL, and what Google's code client and Telegram's widget reach; nothing broader", async () => {
    const policy = await policyOf('/widget/?appId=providers&env=production')
    expect(policy['script-src']).toEqual(["'self'", providerScriptUrls.google, providerScriptUrls.apple, providerScriptUrls.telegram])
    expect(policy['connect-src']).toEqual([
      "'self'",
      new URL(sandbox.url).origin,
      new URL(sandbox.url).origin.replace(/^http/, 'ws'),
      'https://accounts.google.com/gsi/',
      'https://oauth.telegram.org/auth/get',
    ])
    expect(policy['frame-src']).toEqual(["'self'", 'https://accounts.google.com/gsi/'])
    expect(policy['default-src']).toEqual(["'self'"])
  })

  test('a script URL the allowlist refuses, or of a provider switched off, adds nothing to the policy', async () => {
    const policy = await policyOf('/widget/?appId=tampered&env=production')
    expect(policy['script-src']).toEqual(["'self'"])
    expect(policy['frame-src']).toBeUndefined()
    expect(policy['connect-src']).toEqual(["'self'", new URL(sandbox.url).origin, new URL(sandbox.url).origin.replace(/^http/, 'ws')])
  })

  test('an unknown app still gets the whole policy, framed by nobody', async () => {
    const policy = await policyOf('/widget/?appId=unknown')
    expect(policy['frame-ancestors']).toEqual(["'none'"])
    expect(policy['connect-src']).toEqual(["'self'"])
    expect(policy['object-src']).toEqual(["'none'"])
    expect(policy['base-uri']).toEqual(["'none'"])
  })

  test.each([
    ['demo', ''],
    ['providers', '&env=production'],
  ])(
    'no source lets a script run or a connection out (%s): no unsafe-*, no wildcard, no scheme alone (ws: only to a named relay), paths only the allowlist',
    async (appId, env) => {
      const policy = await policyOf(`/widget/?appId=${appId}${env}`)
      const { 'frame-ancestors': ancestors, ...rest } = policy
      expect(ancestors).toBeDefined()
      const withPath: Record<string, string[]> = {
        'script-src': Object.values(providerScriptUrls),
        'connect-src': ['https://accounts.google.com/gsi/', 'https://oauth.telegram.org/auth/get'],
        'frame-src': ['https://accounts.google.com/gsi/'],
      }
      for (const [directive, sources] of Object.entries(rest))
        for (const source of sources) {
          if (withPath[directive]?.includes(source)) continue
          expect(source, directive).toMatch(
            directive === 'connect-src' ? /^('self'|(https?|wss?):\/\/[a-z0-9.-]+(:\d+)?)$/ : /^('self'|'none'|data:|https?:\/\/[a-z0-9.-]+(:\d+)?)$/,
          )
        }
    },
  )
})
