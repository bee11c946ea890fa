import { type BaseUrls, type Env, assertSecretsPrivate, defaultEnv, resolveBaseUrls } from './hosts.ts'
import { type TokenHolder, createTokenHolder } from './tokens.ts'

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
  /** Overrides entries of the host table in hosts.ts; env 'production' has none, so it needs all four. */
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
