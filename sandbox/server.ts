import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Address } from 'viem'
import { readSeed } from './services/app-config/apps.ts'
import { allAllowedOrigins, upsertApp } from './services/app-config/queries.ts'
import { startAnvil, type Anvil } from './infra/anvil/anvil.ts'
import { anvilPortFor, localChains, type RunningChain } from './infra/anvil/local-chains.ts'
import { openStore, type Store } from './infra/database/store.ts'
import { createNetworks } from './services/chain/networks.ts'
import { ensureDemoContracts } from './contracts/deploy.ts'
import { createFaucet, faucetAccountOf, fundNewFaucet, type FaucetReserve } from './services/chain/faucet.ts'
import { createSigningAccounts, loadKeys } from './infra/keys.ts'
import { emptyPublicAccounts } from './infra/anvil/public-accounts.ts'
import { createOidc } from './emulators/oidc/oidc.ts'
import { createLimiter, type RateLimits } from './http/rate-limit.ts'
import { type ChannelLimits, createPopupChannels } from './services/popup/channel.ts'
import { lockDataDir } from './infra/lock.ts'
import type { Deps } from './context.ts'
import { createApp } from './app.ts'
import { createReplayGuard } from './http/request-signatures.ts'
import { closeServer, listen } from './http/listen.ts'
import { createOwnOrigins } from './http/exchange.ts'
import type { RelayLimits } from './services/walletconnect/limits.ts'
import { createRelay } from './services/walletconnect/relay.ts'
import { attachRelay } from './services/walletconnect/routes.ts'
import { ensureAccountAbstraction } from './contracts/account-abstraction.ts'
import { createSmartAccounts } from './services/smart-account/service.ts'
import { withSandboxRampClients } from './services/ramp/sandbox-client.ts'
import { openTank } from './services/smart-account/queries.ts'
import { ensureIdentityKeys } from './services/identity/key-ring.ts'
import { privateKeyToAccount } from 'viem/accounts'
import { bytesToHex, parseEther } from 'viem'

/** What each seed app's gas tank holds on each chain when first opened. */
const seedGasTank = parseEther('1')
/** The verifying paymaster's EntryPoint deposit, kept at least this on every chain (it pays sponsored gas). */
const paymasterDeposit = parseEther('100')

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
  /**
   * Overrides of what payouts leave in the faucet account per chain: on-ramp payouts and the mobile wallet's
   * gift 1,000 ETH and 1,000,000 DEMO, sign-up gifts 10 ETH (`ethForGas`) (services/chain/faucet.ts).
   */
  faucetReserve?: Partial<FaucetReserve>
  /** Overrides of the WalletConnect relay's limits (services/walletconnect/limits.ts). */
  relayLimits?: Partial<RelayLimits>
  /** Overrides of the popup channel's limits (services/popup/channel.ts). */
  popupLimits?: Partial<ChannelLimits>
  /** How long the bundler gathers user operations before sending a bundle (ms). */
  bundleDelayMs?: number
  /** Tests only: see Deps.clientAddressOf (sandbox.fixture.ts otherMachines). */
  clientAddressOf?: (socketAddress: string) => string
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
    const seeds = withSandboxRampClients(readSeed(), dataDir)
    for (const seed of seeds) await upsertApp(store, seed)
    await ensureIdentityKeys({ store, keys })

    const faucetAccount = faucetAccountOf(keys.faucetKey)
    const faucetAddress = faucetAccount.address
    const bundlerAccount = privateKeyToAccount(bytesToHex(keys.bundlerKey))
    const paymasterAccount = privateKeyToAccount(bytesToHex(keys.paymasterKey))
    const chains: RunningChain[] = []
    for (const [index, chain] of localChains.entries()) {
      const anvil: Anvil = await startAnvil({
        chainId: chain.chainId,
        port: anvilPortFor(index, options.anvilPort ?? 8545),
        statePath: join(dataDir, `chain-${chain.chainId}.json`),
      })
      cleanups.push(() => anvil.stop())
      if (index === 0 && !anvil.isolated)
        console.warn('sandbox: `unshare -rn` is not available here: anvil listens on random loopback ports (CORS off) that local programs can reach')
      const running = { ...chain, rpcUrl: anvil.rpcUrl }
      await emptyPublicAccounts(running)
      await ensureDemoContracts(running, faucetAccount.address)
      await fundNewFaucet(running, faucetAccount)
      await ensureAccountAbstraction(running, { paymasterSigner: paymasterAccount.address, paymasterDeposit: paymasterDeposit })
      await fundNewFaucet(running, bundlerAccount)
      chains.push(running)
    }

    const networks = createNetworks(chains)
    // Seed apps start with some gas in their tanks, so sponsorship works out of the box.
    for (const seed of seeds)
      for (const environment of seed.environments)
        for (const chain of chains) await openTank(store, { appId: seed.appId, environment }, chain.chainId, seedGasTank)

    const own = createOwnOrigins()
    const oidc = await createOidc(dataDir, own.origin)
    const deps: Deps = {
      store,
      keys,
      chains,
      networks,
      faucet: createFaucet(chains, faucetAccount, options.faucetReserve),
      oidc,
      limiter: createLimiter(options.rateLimits),
      channels: createPopupChannels(options.popupLimits),
      replays: createReplayGuard(store),
      signingAccounts: createSigningAccounts(),
      relay: createRelay(options.relayLimits),
      smartAccounts: createSmartAccounts({ networks, store, bundlerKey: bundlerAccount, paymasterKey: paymasterAccount, bundleDelayMs: options.bundleDelayMs }),
      origin: own.origin,
      ownOrigins: own.ownOrigins,
      distDir,
      clientAddressOf: options.clientAddressOf,
    }
    cleanups.push(() => deps.smartAccounts.close())
    await deps.smartAccounts.resume()
    const servers = await listen(createApp(deps, options.log ?? false), options.port ?? 0)
    const port = servers.port
    own.listening(port)
    cleanups.push(() => Promise.all(servers.list.map(closeServer)).then(() => {}))
    // Upgraded sockets keep a server's close() waiting: the relay drops them first (cleanups run in reverse).
    cleanups.push(() => deps.relay.close())
    attachRelay(servers.list, { ...deps, appOrigins: () => allAllowedOrigins(store) })

    // Where this data folder's sandbox listens, for the programs that use its keys (examples/ramp):
    // a port taken by something else (npm start then moves) must not get their signed requests.
    writeFileSync(join(dataDir, 'sandbox-url'), `${deps.origin()}\n`, { mode: 0o600 })

    let closing: Promise<void> | undefined
    return { url: deps.origin(), port, dataDir, chains, faucetAddress, store, close: () => (closing ??= stopAll()) }
  } catch (error) {
    await stopAll()
    throw error
  }
}
