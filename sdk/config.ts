import { SdkError } from './errors.ts'

// A client's configuration as every service client works from it: where each service is (the host
// table below, per environment, with the caller's overrides), which secrets may travel there, and
// the resolved context (hosts, token holder, fetch) the create*Client functions share. The token
// holder, the session's part of that context, is at the end.

/**
 * The one table of per-environment service hosts. The provider's real host names are not published here:
 * sandbox points at the local sandbox server, production at nothing, so a production client must
 * be given its hosts (`createClient({ baseUrls })`, which overrides any entry). A production client
 * that quietly talked to http://localhost:8787 would hand live credentials to whatever listens there.
 */
export type Env = 'sandbox' | 'production'

export type BaseUrls = {
  /** Wallet service, path version v2. */
  wallet: string
  /** Account-abstraction service, path version v1. */
  smartAccount: string
  /** Ramp service, path version v1. */
  ramp: string
  /** App config service (GET /apps/config under it). */
  appConfig: string
}

const local = 'http://localhost:8787'

export const hosts: { readonly sandbox: Readonly<BaseUrls>; readonly production: Readonly<Partial<BaseUrls>> } = {
  sandbox: {
    wallet: `${local}/api/v2`,
    smartAccount: `${local}/api/v1`,
    ramp: `${local}/v1`,
    appConfig: `${local}/api/v1`,
  },
  production: {},
}

export const defaultEnv: Env = 'sandbox'

const services = ['wallet', 'smartAccount', 'ramp', 'appConfig'] as const

/** The base URLs of `env` with `overrides` applied; throws (INVALID_CONFIG) when one has none. */
export function resolveBaseUrls(env: Env = defaultEnv, overrides: Partial<BaseUrls> = {}): BaseUrls {
  const base: Partial<BaseUrls> = hosts[env]
  const missing = services.filter((service) => !(overrides[service] ?? base[service]))
  if (missing.length) {
    const names = missing.map((service) => `baseUrls.${service}`)
    const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]
    throw new SdkError(`env '${env}' has no built-in service hosts: pass ${list}`, { code: 'INVALID_CONFIG' })
  }
  const url = (service: (typeof services)[number]) => trimSlash((overrides[service] ?? base[service])!)
  return { wallet: url('wallet'), smartAccount: url('smartAccount'), ramp: url('ramp'), appConfig: url('appConfig') }
}

/**
 * Whether a secret may be sent to `url`: https, or plain HTTP to this machine itself (localhost,
 * 127.0.0.0/8, [::1]), which no one on the network can read. Not *.localhost: Node resolves those
 * through DNS like any other name.
 */
export function isPrivateChannel(url: string): boolean {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return false
  }
  if (parsed.protocol === 'https:') return true
  if (parsed.protocol !== 'http:') return false
  const host = parsed.hostname
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

/** Throws (INVALID_CONFIG) when a configured secret would travel over plain HTTP off this machine. */
export function assertSecretsPrivate(baseUrls: BaseUrls, secrets: { clientSecret?: string | undefined; rampableClientSecret?: string | undefined }): void {
  // x-client-secret goes to the wallet service; the ramp client secret to the ramp service. The
  // smart-account service gets an HMAC of the client secret, never the secret.
  const carried = [secrets.clientSecret ? baseUrls.wallet : undefined, secrets.rampableClientSecret ? baseUrls.ramp : undefined]
  for (const url of carried) {
    if (url === undefined || isPrivateChannel(url)) continue
    const origin = URL.canParse(url) ? new URL(url).origin : url
    throw new SdkError(`A client secret is never sent over plain HTTP: ${origin} is not https and not this machine (localhost, 127.0.0.1, [::1])`, {
      code: 'INVALID_CONFIG',
    })
  }
}

/** The value of the `x-environment` header: the services call the sandbox data set 'development'. */
export function environmentHeader(env: Env = defaultEnv): 'production' | 'development' {
  return env === 'production' ? 'production' : 'development'
}

function trimSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url
}

/** Ramp credentials for host back ends: requests are RSA-signed with this key. */
export type RampableCredentials = {
  clientId: string
  /** PEM, PKCS#8 ('BEGIN PRIVATE KEY') or PKCS#1 ('BEGIN RSA PRIVATE KEY'). */
  privateKey: string
}

export type ClientConfig = {
  appId?: string
  /** 'sandbox' (default) or 'production'. */
  env?: Env
  /** App-level secret, server side only (sent as x-client-secret, and the HMAC key of smart-account calls). */
  clientSecret?: string
  rampableClientSecret?: string
  rampable?: RampableCredentials
  /** Overrides entries of the host table above (`hosts`); env 'production' has none, so it needs all four. */
  baseUrls?: Partial<BaseUrls>
  /** Share one holder between clients (createClient does this). */
  tokens?: TokenHolder
  /** Another fetch implementation (a proxy agent, a test double of the network). */
  fetch?: typeof fetch
  /**
   * Wraps every token refresh. Refresh tokens rotate, so several holders of one (browser tabs
   * sharing a stored session) must take turns: run `refresh` under a lock, or answer the pair
   * another holder already got for `spent` without spending it again.
   */
  coordinateRefresh?: (
    spent: string,
    refresh: () => Promise<{ walletToken: string; refreshToken: string }>,
  ) => Promise<{ walletToken: string; refreshToken: string }>
}

/** The resolved configuration every service client works from. */
export type Context = {
  config: ClientConfig
  env: Env
  baseUrls: BaseUrls
  tokens: TokenHolder
  fetch: typeof fetch
}

const contexts = new WeakSet<Context>()

/** Throws (INVALID_CONFIG) for production without its hosts, or a secret bound for plain HTTP off this machine. */
export function resolveContext(config: ClientConfig = {}): Context {
  const env = config.env ?? defaultEnv
  const baseUrls = resolveBaseUrls(env, config.baseUrls)
  assertSecretsPrivate(baseUrls, config)
  const ctx: Context = {
    config,
    env,
    baseUrls,
    tokens: config.tokens ?? createTokenHolder(),
    // Read fetch at call time so a page that patches globalThis.fetch later still works.
    fetch: config.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  }
  contexts.add(ctx)
  return ctx
}

/** Lets every create*Client take either a configuration or the context createClient already resolved. */
export function toContext(config: ClientConfig | Context = {}): Context {
  return contexts.has(config as Context) ? (config as Context) : resolveContext(config as ClientConfig)
}

/** Per-call options: every call can be aborted; extra headers are merged last. */
export type CallOptions = {
  signal?: AbortSignal
  headers?: Record<string, string>
}

/** What the token holder keeps for one session: wallet, refresh and ramp tokens, the ramp client secret, and the evm address they belong to. */
export type Tokens = {
  walletToken?: string
  refreshToken?: string
  rampAccessToken?: string
  rampClientSecret?: string
  address?: string
}

export type TokenHolder = {
  get(): Tokens
  /** Merges the given fields; a field set to undefined is removed. */
  set(patch: Tokens): void
  /** Removes the given fields, or everything. */
  clear(keys?: readonly (keyof Tokens)[]): void
  /** Called after every change, so a widget can persist the session. Returns the unsubscribe function. */
  subscribe(listener: (tokens: Tokens) => void): () => void
}

export function createTokenHolder(initial: Tokens = {}): TokenHolder {
  let state: Tokens = compact(initial)
  const listeners = new Set<(tokens: Tokens) => void>()
  const emit = () => {
    for (const listener of listeners) listener(state)
  }
  return {
    get: () => state,
    set(patch) {
      state = compact({ ...state, ...patch })
      emit()
    },
    clear(keys) {
      if (!keys) state = {}
      else {
        const next = { ...state }
        for (const key of keys) delete next[key]
        state = next
      }
      emit()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

function compact(tokens: Tokens): Tokens {
  const out: Tokens = {}
  for (const [key, value] of Object.entries(tokens) as [keyof Tokens, string | undefined][]) {
    if (value !== undefined) out[key] = value
  }
  return Object.freeze(out) as Tokens
}
