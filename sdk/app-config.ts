import { type CallOptions, type ClientConfig, type Context, environmentHeader, toContext } from './config.ts'
import { SdkError, messages } from './errors.ts'
import { readText, requestRaw, unwrap } from './http.ts'

export type ChainConfig = {
  chainId: number
  name: string
  /** The wallet service's network slug for this chain. */
  network: string
  rpcUrls: string[]
  nativeCurrency: { name: string; symbol: string; decimals: number }
  testnet: boolean
  /** The chain's contracts in viem's `chain.contracts` shape: Multicall3, and on the provider's chains its tokens and smart-account contracts. */
  contracts?: ChainContracts
}

type Address = `0x${string}`

/**
 * What app config names of a chain's contracts. The four smart-account entries are there on every
 * chain the provider runs its bundler on (for every app: public addresses are no secret); with them
 * viem's `toSoladySmartAccount` finds an owner's account (see `smartAccountContractsOf`).
 */
export type ChainContracts = {
  multicall3?: { address: Address }
  /** The ERC-4337 EntryPoint the bundler serves (`eth_supportedEntryPoints`). */
  entryPoint?: { address: Address; version: '0.7' }
  /**
   * The factory of the provider's smart account (Solady's ERC4337 factory interface: `createAccount(owner, salt)`,
   * `getAddress(salt)`). `saltRule` `ownerThenZeros`: the 32-byte salt is the owner's 20-byte address
   * followed by 12 zero bytes (any other salt reverts `SaltDoesNotStartWithOwner()`, or makes another account).
   */
  accountFactory?: { address: Address; accountType: 'solady'; saltRule: 'ownerThenZeros' }
  /** The account implementation the factory's proxies delegate to. */
  accountImplementation?: { address: Address }
  /** The verifying paymaster that sponsors from an app's gas tank (ERC-7677 `pm_getPaymasterData` on the bundler URL). */
  paymaster?: { address: Address; type: 'verifying' }
} & { readonly [name: string]: { address: Address } | undefined }

/** The `data` of GET /api/v1/apps/config, as the sandbox's app-config route answers it. */
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
   * on demand (never at start), and the only place it loads it from: exactly the provider's own
   * URL or the sandbox's stand-in on the provider origin (sdk/sign-in-scripts.ts holds the list;
   * anything else is never loaded). Absent or null: the provider cannot be used.
   */
  google: { enabled: boolean; clientId: string | null; scriptUrl?: string | null }
  apple: { enabled: boolean; clientId: string | null; redirectUri: string | null; scriptUrl?: string | null }
  telegram: { enabled: boolean; botId: string | null; botUsername: string | null; scriptUrl?: string | null }
  whatsapp: { enabled: boolean }
  /** The username and password form of the connect home: the form exists but stays switched off unless this turns it on. */
  usernamePassword?: { enabled: boolean }
  /**
   * The app's step-up rules. `transactionAbove`: per chain id, the native value (in the native unit,
   * a decimal string such as "0.5") above which a transaction needs a fresh second factor; the wallet
   * service refuses it without a step-up proof for that exact transaction. Absent or null: none.
   */
  stepUp?: { transactionAbove?: Record<string, string> | null } | null
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

/** The smart-account contracts of one chain, checked: every address well formed, the versions and rules this sdk knows. */
export type SmartAccountContracts = {
  entryPoint: { address: Address; version: '0.7' }
  accountFactory: { address: Address; accountType: 'solady'; saltRule: 'ownerThenZeros' }
  accountImplementation: { address: Address }
  paymaster: { address: Address; type: 'verifying' }
}

/**
 * Any case, no checksum: the set viem's isAddress(value, { strict: false }) accepts. Not imported
 * from viem because this module is in the wallet frame's first load, which that import pushes past
 * its 100 KB budget; the sdk imports nothing of the kit's own (the bridge's isAddress).
 */
const isAddress = (value: unknown): value is Address => typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value)
const addressOf = (entry: unknown): unknown => (typeof entry === 'object' && entry !== null ? (entry as { address?: unknown }).address : undefined)

/**
 * The smart-account contracts app config names for `chain`, or undefined when it names none (a
 * public chain). Throws an SdkError when they are there but not as this sdk reads them (a bad
 * address, an EntryPoint other than v0.7, a salt rule it does not know): never a guess.
 */
export function smartAccountContractsOf(chain: Pick<ChainConfig, 'chainId' | 'contracts'>): SmartAccountContracts | undefined {
  const contracts = chain.contracts as Record<string, unknown> | undefined
  const names = ['entryPoint', 'accountFactory', 'accountImplementation', 'paymaster'] as const
  if (!contracts || names.every((name) => contracts[name] === undefined)) return undefined
  const bad = (what: string) =>
    new SdkError(`App config names the smart-account contracts of chain ${chain.chainId} in a way this sdk does not read (${what})`, {
      code: 'INVALID_APP_CONFIG',
      details: { chainId: chain.chainId, contract: what },
    })
  for (const name of names) if (!isAddress(addressOf(contracts[name]))) throw bad(name)
  const { entryPoint, accountFactory, accountImplementation, paymaster } = contracts as SmartAccountContracts
  if (entryPoint.version !== '0.7') throw bad('entryPoint.version')
  if (accountFactory.accountType !== 'solady') throw bad('accountFactory.accountType')
  if (accountFactory.saltRule !== 'ownerThenZeros') throw bad('accountFactory.saltRule')
  if (paymaster.type !== 'verifying') throw bad('paymaster.type')
  return {
    entryPoint: { address: entryPoint.address, version: '0.7' },
    accountFactory: { address: accountFactory.address, accountType: 'solady', saltRule: 'ownerThenZeros' },
    accountImplementation: { address: accountImplementation.address },
    paymaster: { address: paymaster.address, type: 'verifying' },
  }
}

/** The factory salt of `owner`'s account under the rule `ownerThenZeros`: the owner's 20 bytes, then 12 zero bytes. */
export function accountSaltOf(owner: Address): Address {
  if (!isAddress(owner)) throw new SdkError('Invalid owner address', { code: 'INVALID_ADDRESS' })
  return `${owner.toLowerCase()}${'00'.repeat(12)}` as Address
}

/**
 * The id of the data block in which the provider's server may write the app config into the wallet
 * frame's page (JSON, `<` escaped): the frame then reads it there instead of asking the network.
 */
export const appConfigElementId = 'wallet-kit-app-config'

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
