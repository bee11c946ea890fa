import { type CallOptions, type ClientConfig, type Context, toContext } from './config.ts'
import { SdkError, messages } from './errors.ts'
import { readText, requestRaw, unwrap } from './http.ts'
import { environmentHeader } from './hosts.ts'

export type ChainConfig = {
  chainId: number
  name: string
  /** The wallet service's network slug for this chain. */
  network: string
  rpcUrls: string[]
  nativeCurrency: { name: string; symbol: string; decimals: number }
  testnet: boolean
}

/** The `data` of GET /api/v1/apps/config (SPEC.md section 3, contract.md). */
export type AppConfig = {
  appId: string
  name: string
  environment: 'production' | 'development'
  isEmbeddedWalletEnabled: boolean
  isAAEnabled: boolean
  useWalletKitBrand: boolean
  logoUrl: string | null
  useEmailLogin: boolean
  rampableClientSecret: string | null
  showPoweredBy: boolean
  /**
   * The social providers. `scriptUrl` is where the widget loads the provider's own sign-in script
   * on demand, and the only place it loads it from (SPEC.md section 7): exactly the provider's own
   * URL or the sandbox's stand-in on the provider origin (sdk/sign-in-scripts.ts holds the list;
   * anything else is never loaded). Absent or null: the provider cannot be used.
   */
  google: { enabled: boolean; clientId: string | null; scriptUrl?: string | null }
  apple: { enabled: boolean; clientId: string | null; redirectUri: string | null; scriptUrl?: string | null }
  telegram: { enabled: boolean; botId: string | null; botUsername: string | null; scriptUrl?: string | null }
  whatsapp: { enabled: boolean }
  /** The username and password form of the connect home (SPEC.md section 2: present, switched off unless this turns it on). */
  usernamePassword?: { enabled: boolean }
  /** CSP-style source patterns, e.g. 'http://localhost:*'. */
  allowedOrigins: string[]
  chains: ChainConfig[]
  /** Where the widget's WalletConnect clients connect: the sandbox's own relay, or the public relay and the app's Reown project id. */
  walletConnect: {
    relayUrl: string
    projectId: string
    /** A WalletConnect wallet that runs in a browser tab, to pair with during development (the sandbox's /dev/wallet); null in production. */
    testWallet: string | null
  }
}

export type AppConfigClient = {
  get(options?: CallOptions): Promise<AppConfig>
}

/** GET {appConfig}/apps/config with x-app-id and x-environment. No caching here: the widget caches (1 h). */
export function createAppConfigClient(config: ClientConfig | Context = {}): AppConfigClient {
  const ctx = toContext(config)
  return {
    async get(options = {}) {
      const appId = ctx.config.appId
      if (!appId) throw new SdkError(messages.appIdNotSet, { code: 'APP_ID_NOT_SET' })
      const response = await requestRaw({
        fetch: ctx.fetch,
        baseUrl: ctx.baseUrls.appConfig,
        method: 'GET',
        path: '/apps/config',
        headers: { 'x-app-id': appId, 'x-environment': environmentHeader(ctx.env), ...options.headers },
        ...(options.signal ? { signal: options.signal } : {}),
      })
      const text = await readText(response, options.signal)
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch (error) {
        throw new SdkError(messages.appConfigFailed, { code: String(response.status), cause: error })
      }
      if (!response.ok) throw new SdkError(messages.appConfigFailed, { code: String(response.status), details: body })
      return unwrap(body) as AppConfig
    },
  }
}
