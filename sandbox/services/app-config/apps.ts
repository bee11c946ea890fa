import { readFileSync } from 'node:fs'
import type { AppConfig } from '../../../sdk/index.ts'
import type { RunningChain } from '../../infra/chain/local-chains.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import type { Store } from '../../infra/database/store.ts'
import { isOriginPattern } from '../../http/origins.ts'

export type Environment = 'production' | 'development'

/** The per-app flags of the app config answer (contract: GET /api/v1/apps/config): the sdk's type, less what the sandbox fills in. */
export type AppSettings = Omit<AppConfig, 'appId' | 'name' | 'environment' | 'allowedOrigins' | 'chains'>

/** Per-app secrets kept out of the app config answer. */
export type AppSecrets = {
  /** `<botId>:<secret>`, the key of Telegram's login hash. */
  telegramBotToken?: string | null
  /** The ramp client whose RSA-signed requests this app accepts, and its public key (PEM, SPKI). */
  rampClientId?: string | null
  rampPublicKey?: string | null
}

export type App = {
  appId: string
  environment: Environment
  name: string
  clientSecret: string | null
  allowedOrigins: string[]
  settings: AppSettings
  secrets: AppSecrets
}

export type AppSeed = Omit<App, 'environment' | 'secrets'> & { environments: Environment[]; secrets?: AppSecrets }

export function parseEnvironment(value: string | undefined): Environment | undefined {
  if (value === undefined || value === '' || value === 'development' || value === 'sandbox') return 'development'
  if (value === 'production') return 'production'
  return undefined
}

export function readSeed(path: string | URL = new URL('../../seed/apps.json', import.meta.url)): AppSeed[] {
  const seeds = JSON.parse(readFileSync(path, 'utf8')) as AppSeed[]
  for (const seed of seeds) {
    if (!seed.appId || !Array.isArray(seed.environments) || typeof seed.settings !== 'object')
      throw new Error(`Invalid app seed ${JSON.stringify(seed.appId)}`)
    // These patterns go verbatim into a CSP header: no spaces, semicolons or paths may slip in.
    const bad = seed.allowedOrigins.find((pattern) => !isOriginPattern(pattern))
    if (bad !== undefined) throw new Error(`App ${seed.appId}: invalid allowed origin ${JSON.stringify(bad)}`)
  }
  return seeds
}

/** The seed file is the source of truth for seeded apps: edits apply on the next start. */
export async function upsertApp(store: Store, seed: AppSeed) {
  appCache.delete(store)
  for (const environment of seed.environments)
    await store.query(
      `INSERT INTO apps (app_id, environment, name, client_secret, allowed_origins, settings, secrets)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb)
       ON CONFLICT (app_id, environment) DO UPDATE SET name = EXCLUDED.name, client_secret = EXCLUDED.client_secret,
         allowed_origins = EXCLUDED.allowed_origins, settings = EXCLUDED.settings, secrets = EXCLUDED.secrets, updated_at = now()`,
      [
        seed.appId,
        environment,
        seed.name,
        seed.clientSecret,
        JSON.stringify(seed.allowedOrigins),
        JSON.stringify(seed.settings),
        JSON.stringify(seed.secrets ?? {}),
      ],
    )
}

type AppRow = {
  app_id: string
  environment: Environment
  name: string
  client_secret: string | null
  allowed_origins: string[]
  settings: AppSettings
  secrets: AppSecrets
}

const toApp = (row: AppRow): App => ({
  appId: row.app_id,
  environment: row.environment,
  name: row.name,
  clientSecret: row.client_secret,
  allowedOrigins: row.allowed_origins,
  settings: row.settings,
  secrets: row.secrets ?? {},
})

// Every API request looks its app up; a second of staleness spares the database that query
// under load, and an edit to the apps table still shows within a second.
const appCache = new WeakMap<Store, Map<string, { app: App | undefined; until: number }>>()
const appCacheMs = 1000

export async function findApp(store: Store, appId: string, environment: Environment): Promise<App | undefined> {
  let cache = appCache.get(store)
  if (!cache) appCache.set(store, (cache = new Map()))
  const key = `${appId}\u0000${environment}`
  const hit = cache.get(key)
  if (hit && hit.until > Date.now()) return hit.app
  const { rows } = await store.query<AppRow>('SELECT * FROM apps WHERE app_id = $1 AND environment = $2', [appId, environment])
  const app = rows[0] && toApp(rows[0])
  if (cache.size > 1000) cache.clear()
  cache.set(key, { app, until: Date.now() + appCacheMs })
  return app
}

/** Every environment of one app (the widget page may be framed before the environment is known). */
export async function findAppAnyEnvironment(store: Store, appId: string): Promise<App[]> {
  const { rows } = await store.query<AppRow>('SELECT * FROM apps WHERE app_id = $1 ORDER BY environment', [appId])
  return rows.map(toApp)
}

/** All allowed-origin patterns of all apps: a CORS preflight carries no x-app-id to narrow it down. */
export async function allAllowedOrigins(store: Store): Promise<string[]> {
  const { rows } = await store.query<{ allowed_origins: string[] }>('SELECT allowed_origins FROM apps')
  return [...new Set(rows.flatMap((row) => row.allowed_origins))]
}

export function appConfig(app: App, chains: readonly RunningChain[], origin: string) {
  const settings = app.settings
  // Listed field by field: jsonb does not keep key order, and the answer should read like the contract.
  return {
    appId: app.appId,
    name: app.name,
    environment: app.environment,
    isEmbeddedWalletEnabled: settings.isEmbeddedWalletEnabled,
    isAAEnabled: settings.isAAEnabled,
    useWalletKitBrand: settings.useWalletKitBrand,
    logoUrl: settings.logoUrl,
    useEmailLogin: settings.useEmailLogin,
    rampableClientSecret: settings.rampableClientSecret,
    showPoweredBy: settings.showPoweredBy,
    google: { enabled: settings.google.enabled, clientId: settings.google.clientId },
    // A seed may give the redirect URI as a path on the sandbox, whose port is known only at run time.
    apple: {
      enabled: settings.apple.enabled,
      clientId: settings.apple.clientId,
      redirectUri: settings.apple.redirectUri?.startsWith('/') ? `${origin}${settings.apple.redirectUri}` : settings.apple.redirectUri,
    },
    telegram: { enabled: settings.telegram.enabled, botId: settings.telegram.botId, botUsername: settings.telegram.botUsername },
    whatsapp: { enabled: settings.whatsapp.enabled },
    allowedOrigins: app.allowedOrigins,
    chains: chains.map((chain) => ({
      chainId: chain.chainId,
      name: chain.name,
      network: chain.network,
      rpcUrls: [`${origin}/rpc/${chain.chainId}`],
      nativeCurrency: chain.nativeCurrency,
      testnet: true,
      // viem's `chain.contracts` shape: Multicall3 for batched reads, and the demo tokens.
      contracts: demoContracts,
    })),
  }
}

/** The apps (any environment) whose Google or Apple sign-in uses this client id. */
export async function findAppsByOauthClient(store: Store, provider: 'google' | 'apple', clientId: string): Promise<App[]> {
  const { rows } = await store.query<AppRow>("SELECT * FROM apps WHERE settings -> $1 ->> 'clientId' = $2", [provider, clientId])
  return rows.map(toApp)
}

/** The apps (any environment) whose Telegram login uses this bot id. */
export async function findAppsByTelegramBot(store: Store, botId: string): Promise<App[]> {
  const { rows } = await store.query<AppRow>("SELECT * FROM apps WHERE settings -> 'telegram' ->> 'botId' = $1", [botId])
  return rows.map(toApp)
}
