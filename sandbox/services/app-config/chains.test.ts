import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { base, sepolia } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { chainConfigOf, chainOfSlug, chainTable } from '../../../sdk/chain-table.ts'
import { localChains } from '../../infra/anvil/local-chains.ts'
import { startTestSandbox, testAppSettings, type TestSandbox } from '../../sandbox.fixture.ts'
import { appConfig, readSeed, type App, type AppSeed } from './apps.ts'
import { upsertApp } from './queries.ts'

const origin = 'http://localhost:8787'
const running = localChains.map((chain, i) => ({ ...chain, rpcUrl: `http://127.0.0.1:${8545 + i}` }))
const appWith = (chains: unknown): App => ({
  appId: 'multichain',
  environment: 'development',
  name: 'Multichain',
  clientSecret: null,
  allowedOrigins: ['http://localhost:*'],
  settings: { ...testAppSettings(), ...(chains !== undefined && { chains: chains as string[] }) },
  secrets: {},
})
const idsOf = (chains: unknown) => appConfig(appWith(chains), running, origin).chains.map((c) => c.chainId)

describe("an app's public chains next to the local ones (each a chain definition mapped to a wallet network)", () => {
  test('without the setting an app gets the local chains only, as before', () => {
    expect(idsOf(undefined)).toEqual([31337, 31338])
    expect(idsOf([])).toEqual([31337, 31338])
  })

  test("listed slugs follow the local chains, in the app's order, as the chain table defines them", () => {
    const { chains } = appConfig(appWith(['sepolia', 'base']), running, origin)
    expect(chains.map((c) => [c.chainId, c.network])).toEqual([
      [31337, 'local-1'],
      [31338, 'local-2'],
      [11155111, 'sepolia'],
      [8453, 'base'],
    ])
    expect(chains[2]).toEqual(chainConfigOf(chainOfSlug('sepolia')!))
    // viem's values, reached directly: the sandbox proxies only its own chains.
    expect(chains[2]).toMatchObject({
      name: sepolia.name,
      rpcUrls: sepolia.rpcUrls.default.http,
      nativeCurrency: sepolia.nativeCurrency,
      testnet: true,
      blockExplorers: { default: { url: sepolia.blockExplorers.default.url } },
      contracts: { multicall3: { address: sepolia.contracts.multicall3.address } },
    })
    expect(chains[3]).toMatchObject({ name: base.name, testnet: false, blockExplorers: { default: { url: base.blockExplorers.default.url } } })
    // The local chains have no explorer.
    expect(chains[0]).not.toHaveProperty('blockExplorers')
  })

  test('any of the table may be listed', () => {
    expect(idsOf(chainTable.map((e) => e.slug))).toEqual([31337, 31338, ...chainTable.map((e) => e.chain.id)])
  })

  // Settings are read back from the database, where an edit may have put anything: never a failed config.
  test.each([
    ['unknown slugs', ['sepolia', 'nope', 'local-1', '__proto__', 'constructor'], [11155111]],
    ['a slug twice', ['base', 'sepolia', 'base'], [8453, 11155111]],
    ['values of other types', [42, null, { slug: 'base' }, ['base'], 'base'], [8453]],
    ['a string, not a list', 'sepolia', []],
    ['an object', { 0: 'sepolia', length: 1 }, []],
    ['null', null, []],
  ])('stored settings with %s: the rest is served', (_, chains, extra) => {
    expect(idsOf(chains)).toEqual([31337, 31338, ...extra])
  })
})

describe('the seed file is checked at start', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'wallet-kit-seed-'))
  })
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  const seedWith = (chains: unknown) => {
    const seed = { ...appWith(undefined), environments: ['development'] } as Partial<App> & AppSeed
    delete seed.environment
    seed.settings = { ...seed.settings, chains } as AppSeed['settings']
    const path = join(dir, `apps-${Math.random().toString(36).slice(2)}.json`)
    writeFileSync(path, JSON.stringify([seed]))
    return path
  }

  test('known slugs pass', () => {
    expect(readSeed(seedWith(['sepolia', 'base']))[0]!.settings.chains).toEqual(['sepolia', 'base'])
  })

  test.each([
    ['sepolia', 'App multichain: chains must be a list of chain slugs'],
    [['sepolia', 'Sepolia'], 'App multichain: unknown chain "Sepolia" in chains, use one of: ethereum, bnb, polygon'],
    [['__proto__'], 'App multichain: unknown chain "__proto__" in chains'],
    [[1], 'App multichain: unknown chain 1 in chains'],
    [['base', 'base'], 'App multichain: chain "base" is listed twice in chains'],
  ])('%j is refused: %s', (chains, message) => {
    expect(() => readSeed(seedWith(chains))).toThrow(message)
  })
})

describe('served by the sandbox', () => {
  let sandbox: TestSandbox
  beforeAll(async () => {
    sandbox = await startTestSandbox()
    await upsertApp(sandbox.store, {
      appId: 'multichain',
      name: 'Multichain',
      environments: ['development'],
      clientSecret: 'multichain-secret',
      allowedOrigins: ['http://localhost:*'],
      settings: testAppSettings({ chains: ['sepolia', 'base'] }),
    })
  }, 60_000)
  afterAll(() => sandbox?.dispose())

  test("GET /api/v1/apps/config lists them, and the wallet frame's CSP lets it reach their RPC URLs", async () => {
    const { status, body } = await sandbox.call('/api/v1/apps/config', { app: 'multichain' })
    expect(status).toBe(200)
    const chains = body.data.chains as { chainId: number; rpcUrls: string[] }[]
    expect(chains.map((c) => c.chainId)).toEqual([31337, 31338, 11155111, 8453])

    const response = await fetch(`${sandbox.url}/widget/?appId=multichain&env=sandbox`)
    const policy = response.headers.get('content-security-policy') ?? ''
    const connect = policy.split(';').find((d) => d.trim().startsWith('connect-src')) ?? ''
    for (const url of [...sepolia.rpcUrls.default.http, ...base.rpcUrls.default.http]) expect(connect.split(/\s+/)).toContain(new URL(url).origin)
    // The demo app (no setting) is unchanged.
    const demo = await sandbox.call('/api/v1/apps/config')
    expect(demo.body.data.chains.map((c: { chainId: number }) => c.chainId)).toEqual([31337, 31338])
  })
})
