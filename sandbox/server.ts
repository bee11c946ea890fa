import { lookup } from 'node:dns/promises'
import { mkdirSync } from 'node:fs'
import type { Server } from 'node:http'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createAdaptorServer } from '@hono/node-server'
import type { Address } from 'viem'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { readSeed, upsertApp } from './services/app-config/apps.ts'
import { startAnvil, type Anvil } from './infra/chain/anvil.ts'
import { anvilPortFor, localChains, type RunningChain } from './infra/chain/local-chains.ts'
import type { Deps, SandboxEnv } from './context.ts'
import { openStore, type Store } from './infra/database/store.ts'
import { fail, notFound, onError } from './http/envelope.ts'
import { createNetworks } from './services/chain/networks.ts'
import { ensureDemoContracts } from './contracts/deploy.ts'
import { createFaucet, faucetAccountOf, fundNewFaucet, type FaucetReserve } from './services/chain/faucet.ts'
import { apiCors, requireApp, requireOwnHost } from './http/guard.ts'
import { loadKeys } from './infra/keys.ts'
import { emptyPublicAccounts } from './infra/chain/public-accounts.ts'
import { createOidc } from './emulators/oidc/oidc.ts'
import { createLimiter, type RateLimits } from './http/rate-limit.ts'
import { lockDataDir } from './infra/lock.ts'
import { accountRoutes } from './services/account/routes.ts'
import { authRoutes } from './services/auth/routes.ts'
import { configRoutes } from './services/app-config/routes.ts'
import { devWalletRoutes } from './emulators/dev-wallets.ts'
import { iconRoutes } from './services/chain/icon-routes.ts'
import { inboxRoutes } from './emulators/inbox/routes.ts'
import { oauthRoutes } from './emulators/oidc/routes.ts'
import { onrampPageRoutes } from './emulators/onramp/routes.ts'
import { organizationRoutes } from './services/app-config/organization-routes.ts'
import { permissionRoutes } from './emulators/permission/routes.ts'
import { rampServiceRoutes } from './services/ramp/routes.ts'
import { smartAccountRoutes } from './services/smart-account/routes.ts'
import { popupRoutes } from './emulators/popups/routes.ts'
import { rpcRoutes } from './services/chain/rpc-routes.ts'
import { staticRoutes } from './http/static.ts'
import { walletRoutes } from './services/wallet/routes.ts'

export const repoRoot = fileURLToPath(new URL('..', import.meta.url))

export type SandboxOptions = {
  /** HTTP port; 0 (the default here) picks a free one. main.ts passes 8787. */
  port?: number
  /** Database, keys and chain state. Default `SANDBOX_DATA_DIR` or `<repo>/.data/sandbox`. */
  dataDir?: string
  /** Port of the first chain's anvil (the second takes the next port); default 8545, 0 picks free ones. */
  anvilPort?: number
  /** The build output with kit/kit.js and widget/. Default `<repo>/dist`. */
  distDir?: string
  /** Log one line per request. */
  log?: boolean
  /** Use PostgreSQL at this URL instead of PGlite. Default `DATABASE_URL`. */
  databaseUrl?: string
  /** 64 hex chars. Default `SANDBOX_MASTER_KEY`, else a key generated once into the data folder. */
  masterKey?: string
  /** Overrides of the auth and on-ramp rate limits (tests use small ones). */
  rateLimits?: Partial<RateLimits>
  /** Overrides of what on-ramp payouts leave in the faucet account (default 1,000 ETH and 1,000,000 DEMO per chain). */
  faucetReserve?: Partial<FaucetReserve>
}

export type Sandbox = {
  /** http://localhost:<port>, the provider origin the widget and kit are served from. */
  readonly url: string
  readonly port: number
  readonly dataDir: string
  /** The local chains, with `rpcUrl` pointing straight at anvil (unfiltered, for tests and tools). */
  readonly chains: readonly RunningChain[]
  /** The faucet's account: the sandbox's own key (kept in the data folder), the demo tokens' only minter. */
  readonly faucetAddress: Address
  readonly store: Store
  close(): Promise<void>
}

export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const dataDir = resolve(options.dataDir ?? process.env.SANDBOX_DATA_DIR ?? join(repoRoot, '.data', 'sandbox'))
  const distDir = resolve(options.distDir ?? join(repoRoot, 'dist'))
  mkdirSync(dataDir, { recursive: true })

  // Started pieces are stopped in reverse order, also when a later step fails.
  const cleanups: (() => Promise<void> | void)[] = []
  const stopAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  }
  try {
    cleanups.push(lockDataDir(dataDir))
    const keys = loadKeys(dataDir, options.masterKey ?? process.env.SANDBOX_MASTER_KEY)
    const store = await openStore({ dataDir: join(dataDir, 'pg'), databaseUrl: options.databaseUrl ?? process.env.DATABASE_URL })
    cleanups.push(() => store.close())
    for (const seed of readSeed()) await upsertApp(store, seed)

    const faucetAccount = faucetAccountOf(keys.faucetKey)
    const faucetAddress = faucetAccount.address
    const chains: RunningChain[] = []
    for (const [index, chain] of localChains.entries()) {
      const anvil: Anvil = await startAnvil({
        chainId: chain.chainId,
        port: anvilPortFor(index, options.anvilPort ?? 8545),
        statePath: join(dataDir, `chain-${chain.chainId}.json`),
      })
      cleanups.push(() => anvil.stop())
      const running = { ...chain, rpcUrl: anvil.rpcUrl }
      await emptyPublicAccounts(running)
      await ensureDemoContracts(running, faucetAccount.address)
      await fundNewFaucet(running, faucetAccount)
      chains.push(running)
    }

    let port = 0
    const origin = () => `http://localhost:${port}`
    const oidc = await createOidc(dataDir, origin)
    const deps: Deps = {
      store,
      keys,
      chains,
      networks: createNetworks(chains),
      faucet: createFaucet(chains, faucetAccount, options.faucetReserve),
      oidc,
      limiter: createLimiter(options.rateLimits),
      origin,
      ownOrigins: () => [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`],
      distDir,
    }
    const servers = await listen(createApp(deps, options.log ?? false), options.port ?? 0)
    port = servers.port
    cleanups.push(() => Promise.all(servers.list.map(closeServer)).then(() => {}))

    let closing: Promise<void> | undefined
    return { url: deps.origin(), port, dataDir, chains, faucetAddress, store, close: () => (closing ??= stopAll()) }
  } catch (error) {
    await stopAll()
    throw error
  }
}

export function createApp(deps: Deps, log: boolean) {
  const api = (limit: number) =>
    bodyLimit({ maxSize: limit, onError: (c) => fail(c, 413, 'Request body too large') })
  const app = new Hono<SandboxEnv>()
  app.onError(onError)
  app.notFound(notFound)
  app.use('*', async (c, next) => {
    const started = Date.now()
    c.header('X-Content-Type-Options', 'nosniff')
    await next()
    if (log) console.log(`${c.req.method} ${c.req.path} ${c.res.status} ${Date.now() - started}ms`)
  })
  app.use('*', requireOwnHost(deps))
  app.get('/health', (c) => c.json({ ok: true }))
  app.use('/api/*', apiCors(deps), api(64 * 1024))
  app.route('/api/v1', configRoutes(deps))
  app.route('/api/v1', smartAccountRoutes(deps))
  app.use('/api/v2/*', requireApp(deps, { walletService: true }))
  app.route('/api/v2/auth', authRoutes(deps))
  app.route('/api/v2/account', accountRoutes(deps))
  app.route('/api/v2/wallet', walletRoutes(deps))
  app.route('/api/v2/organization', organizationRoutes(deps))
  app.use('/v1/*', api(64 * 1024))
  app.route('/v1', rampServiceRoutes(deps))
  app.use('/rpc/*', api(1024 * 1024))
  app.route('/rpc', rpcRoutes(deps))
  app.use('/dev/api/*', api(16 * 1024))
  app.route('/icons', iconRoutes(deps))
  app.route('/dev', inboxRoutes(deps))
  app.route('/dev', devWalletRoutes(deps))
  app.use('/permission/*', api(16 * 1024))
  app.route('/permission', permissionRoutes(deps))
  app.use('/oauth/*', api(16 * 1024))
  app.route('/oauth', oauthRoutes(deps))
  app.use('/onramp', api(16 * 1024))
  app.route('/onramp', onrampPageRoutes(deps))
  app.use('/telegram/*', api(16 * 1024))
  app.use('/widget/oauth-callback.html', api(32 * 1024))
  app.route('/', popupRoutes(deps))
  app.route('/', staticRoutes(deps))
  return app
}

/**
 * Binds 127.0.0.1 only (never the network). Where `localhost` also resolves to ::1, that is bound
 * too on the same port, so a browser opening http://localhost:<port> reaches us whichever it tries first.
 */
async function listen(app: Hono<SandboxEnv>, port: number) {
  const first = await listenOne(app, port, '127.0.0.1')
  const address = first.address()
  const bound = typeof address === 'object' && address ? address.port : port
  const list: Server[] = [first]
  const resolved = await lookup('localhost', { all: true }).catch(() => [])
  if (resolved.some((entry) => entry.address === '::1')) {
    const second = await listenOne(app, bound, '::1').catch(() => undefined)
    if (second) list.push(second)
  }
  return { port: bound, list }
}

function listenOne(app: Hono<SandboxEnv>, port: number, host: string): Promise<Server> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve(server)
    })
  })
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
