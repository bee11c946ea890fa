import { readFileSync } from 'node:fs'
import type { AppConfig } from '../../../sdk/index.ts'
import { chainConfigOf, chainOfSlug, chainTable, type ChainEntry } from '../../../sdk/chain-table.ts'
import { allowedSignInScript, checkSignInScriptSetting, type SignInScriptProvider } from '../../../sdk/sign-in-scripts.ts'
import type { RunningChain } from '../../infra/anvil/local-chains.ts'
import type { Address } from 'viem'
import { checkStepUpSetting } from './step-up-setting.ts'
import { smartAccountContracts } from '../../contracts/account-abstraction.ts'
import { demoContracts } from '../../contracts/deploy.ts'
import { isOriginPattern } from '../../http/origins.ts'
import { devWalletPath, relayPath, sandboxProjectId, webSocketUrl } from '../walletconnect/config.ts'

export type Environment = 'production' | 'development'

/** The per-app flags of the app config answer (contract: GET /api/v1/apps/config): the sdk's type, less what the sandbox fills in. */
export type AppSettings = Omit<AppConfig, 'appId' | 'name' | 'environment' | 'allowedOrigins' | 'chains' | 'walletConnect'> & {
  /**
   * Absent: the sandbox's own relay, project id and wallet page. A `relayUrl` or `testWallet` that is
   * a path is on the sandbox (its port is known only at run time).
   */
  walletConnect?: Omit<AppConfig['walletConnect'], 'testWallet'> & { testWallet?: string | null }
  /**
   * Public chains the app offers after the sandbox's local ones, by slug of the chain table
   * (sdk/chain-table.ts: 'sepolia', 'base', …). Absent: the local chains only.
   */
  chains?: readonly string[]
  /** The smart-account service's limits (not part of the app config answer). */
  smartAccount?: {
    /**
     * The most one user's smart account may have sponsored from the app's gas tank on one chain in
     * any 24 hours, in wei (a decimal string): what its sponsored operations were charged, and what
     * is set aside for those still in flight. Absent: no cap but the tank itself.
     */
    dailySponsorPerUserWei?: string
  }
}

/** An app's per-user daily sponsorship cap (wei), undefined when it has none; throws on a setting that is not a whole number of wei. */
export function dailySponsorCapOf(settings: Pick<AppSettings, 'smartAccount'>): bigint | undefined {
  const value = settings.smartAccount?.dailySponsorPerUserWei
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !/^\d{1,78}$/.test(value))
    throw new Error('smartAccount.dailySponsorPerUserWei must be a whole number of wei, as a decimal string')
  return BigInt(value)
}

const sandboxWalletConnect = { relayUrl: relayPath, projectId: sandboxProjectId, testWallet: devWalletPath }

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

/** An app as the apps table holds it (one row per app and environment). */
export type AppRow = {
  app_id: string
  environment: Environment
  name: string
  client_secret: string | null
  allowed_origins: string[]
  settings: AppSettings
  secrets: AppSecrets
}

export const toApp = (row: AppRow): App => ({
  appId: row.app_id,
  environment: row.environment,
  name: row.name,
  clientSecret: row.client_secret,
  allowedOrigins: row.allowed_origins,
  settings: row.settings,
  secrets: row.secrets ?? {},
})

export type AppSeed = Omit<App, 'environment' | 'secrets'> & { environments: Environment[]; secrets?: AppSecrets }

export function parseEnvironment(value: string | undefined): Environment | undefined {
  if (value === undefined || value === '' || value === 'development' || value === 'sandbox') return 'development'
  if (value === 'production') return 'production'
  return undefined
}

const signInProviders: readonly SignInScriptProvider[] = ['google', 'apple', 'telegram']

export function readSeed(path: string | URL = new URL('../../seed/apps.json', import.meta.url)): AppSeed[] {
  const seeds = JSON.parse(readFileSync(path, 'utf8')) as AppSeed[]
  for (const seed of seeds) {
    if (!seed.appId || !Array.isArray(seed.environments) || typeof seed.settings !== 'object') throw new Error(`Invalid app seed ${JSON.stringify(seed.appId)}`)
    // These patterns go verbatim into a CSP header: no spaces, semicolons or paths may slip in.
    const bad = seed.allowedOrigins.find((pattern) => !isOriginPattern(pattern))
    if (bad !== undefined) throw new Error(`App ${seed.appId}: invalid allowed origin ${JSON.stringify(bad)}`)
    try {
      dailySponsorCapOf(seed.settings)
    } catch (error) {
      throw new Error(`App ${seed.appId}: ${(error as Error).message}`)
    }
    const stepUpProblem = checkStepUpSetting(seed.settings.stepUp)
    if (stepUpProblem) throw new Error(`App ${seed.appId}: ${stepUpProblem}`)
    const chainsProblem = checkChainSlugs(seed.settings.chains)
    if (chainsProblem) throw new Error(`App ${seed.appId}: ${chainsProblem}`)
    // The frame runs these scripts on the provider origin, next to every app's sessions.
    for (const provider of signInProviders) {
      const scriptProblem = checkSignInScriptSetting(provider, seed.settings[provider]?.scriptUrl)
      if (scriptProblem) throw new Error(`App ${seed.appId}: ${scriptProblem}`)
    }
  }
  return seeds
}

/** Why an app's `chains` setting is not a list of distinct slugs of the chain table, or undefined when it is (or absent). */
export function checkChainSlugs(slugs: unknown): string | undefined {
  if (slugs === undefined) return undefined
  if (!Array.isArray(slugs)) return 'chains must be a list of chain slugs'
  const unknown = slugs.find((slug) => !chainOfSlug(slug))
  if (unknown !== undefined) return `unknown chain ${JSON.stringify(unknown)} in chains, use one of: ${chainTable.map((e) => e.slug).join(', ')}`
  const twice = slugs.find((slug, i) => slugs.indexOf(slug) !== i)
  if (twice !== undefined) return `chain ${JSON.stringify(twice)} is listed twice in chains`
  return undefined
}

/**
 * The public chains an app's settings list, in their order. The settings are read back from the
 * database, where an edit may have put anything: what is not a slug of the table (or comes twice)
 * is left out, never a failed app config.
 */
function publicChainsOf(slugs: unknown): ChainEntry[] {
  if (!Array.isArray(slugs)) return []
  const entries = slugs.map(chainOfSlug).filter((entry) => entry !== undefined)
  return entries.filter((entry, i) => entries.indexOf(entry) === i)
}

/**
 * The app config answer of `app`. `paymasterOf` names the sandbox's paymaster on a local chain: with
 * it each local chain's `contracts` also lists the smart-account contracts (EntryPoint, factory and
 * salt rule, implementation, paymaster), for every app: they are public addresses, and a third party
 * needs them to build or find an account with stock clients.
 */
export function appConfig(app: App, chains: readonly RunningChain[], origin: string, paymasterOf?: (chainId: number) => Address) {
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
    google: { enabled: settings.google.enabled, clientId: settings.google.clientId, scriptUrl: scriptOf('google', settings, origin) },
    // A seed may give the redirect URI as a path on the sandbox, whose port is known only at run time.
    apple: {
      enabled: settings.apple.enabled,
      clientId: settings.apple.clientId,
      redirectUri: settings.apple.redirectUri?.startsWith('/') ? `${origin}${settings.apple.redirectUri}` : settings.apple.redirectUri,
      scriptUrl: scriptOf('apple', settings, origin),
    },
    telegram: {
      enabled: settings.telegram.enabled,
      botId: settings.telegram.botId,
      botUsername: settings.telegram.botUsername,
      scriptUrl: scriptOf('telegram', settings, origin),
    },
    whatsapp: { enabled: settings.whatsapp.enabled },
    usernamePassword: { enabled: settings.usernamePassword?.enabled === true },
    // Only an app that sets step-up rules has the field: every other app's answer stays as it was.
    ...(settings.stepUp && { stepUp: settings.stepUp }),
    allowedOrigins: app.allowedOrigins,
    chains: [
      ...chains.map((chain) => ({
        chainId: chain.chainId,
        name: chain.name,
        network: chain.network,
        rpcUrls: [`${origin}/rpc/${chain.chainId}`],
        nativeCurrency: chain.nativeCurrency,
        testnet: true,
        // viem's `chain.contracts` shape: Multicall3 for batched reads, the demo tokens, the smart-account contracts.
        contracts: { ...demoContracts, ...(paymasterOf && smartAccountContracts(paymasterOf(chain.chainId))) },
      })),
      // Reached at their own default RPC URLs (the sandbox proxies only its local chains); no local chain shares an id with one.
      ...publicChainsOf(settings.chains)
        .filter((entry) => !chains.some((chain) => chain.chainId === entry.chain.id))
        .map(chainConfigOf),
    ],
    walletConnect: walletConnectOf(settings.walletConnect ?? sandboxWalletConnect, origin),
  }
}

/**
 * The sign-in script app config names for `provider`: the setting, a path on the sandbox (a stand-in)
 * made absolute, when sdk/sign-in-scripts.ts allows it; null for anything else (the settings are read
 * back from the database, where an edit may have put any URL), so the frame is never told to load it.
 */
function scriptOf(provider: SignInScriptProvider, settings: AppSettings, origin: string): string | null {
  const url = settings[provider].scriptUrl
  return allowedSignInScript(provider, typeof url === 'string' && url.startsWith('/') ? `${origin}${url}` : url, origin)
}

const walletConnectOf = (settings: NonNullable<AppSettings['walletConnect']>, origin: string): AppConfig['walletConnect'] => ({
  relayUrl: settings.relayUrl.startsWith('/') ? webSocketUrl(origin, settings.relayUrl) : settings.relayUrl,
  projectId: settings.projectId,
  testWallet: settings.testWallet?.startsWith('/') ? `${origin}${settings.testWallet}` : (settings.testWallet ?? null),
})
