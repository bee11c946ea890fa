export type WalletKitOptions = {
  /** Required: the app registered with the provider. */
  appId: string
  /** The app's data set, like test and live keys. Default 'sandbox'. */
  env?: 'sandbox' | 'production'
  /** Origin of the provider (serves the wallet frame and the services). Default: the origin kit.js came from, else http://localhost:8787. */
  providerUrl?: string
  /** Default 'dark'. */
  theme?: 'dark' | 'light'
  /** Default 'en'. */
  locale?: 'en' | 'id'
  /**
   * The chains this page offers (among the app's), the first the default. Default: every chain the
   * app's settings list, in their order; the wallet frame then judges each chain switch.
   */
  chains?: readonly number[]
  /**
   * 'popup': every sign-in and confirmation happens in a secure window on the provider origin.
   * Default 'frame': the wallet frame, with the secure window only where the frame cannot protect
   * the user (no IntersectionObserver v2, an obscured frame, third-party storage blocked).
   */
  mode?: 'frame' | 'popup'
  /** How long to wait for the wallet frame to answer the handshake, in ms. Default 15 000. */
  handshakeTimeout?: number
}

export type ResolvedOptions = Required<Omit<WalletKitOptions, 'providerUrl'>> & { providerOrigin: string }

export const defaultProviderUrl = 'http://localhost:8787'

const oneOf = <T extends string>(name: string, value: unknown, allowed: readonly T[]): T => {
  if (value === undefined) return allowed[0]!
  if (allowed.includes(value as T)) return value as T
  throw new Error(`${name} must be one of ${allowed.join(', ')}`)
}

/**
 * Checks every option up front, so a typo fails at createWalletKit, not at the first request.
 * `fallbackProviderUrl` is where kit.js came from (its origin is the provider); without it, the
 * local sandbox, which a production page must never talk to by default.
 */
export function resolveOptions(options: WalletKitOptions, fallbackProviderUrl?: string): ResolvedOptions {
  if (!options || typeof options.appId !== 'string' || options.appId.length === 0) throw new Error('appId is required')
  const env = oneOf('env', options.env, ['sandbox', 'production'])
  const providerUrl = options.providerUrl ?? fallbackProviderUrl
  if (!providerUrl && env === 'production') throw new Error(`env 'production' needs a providerUrl (the default is the local sandbox)`)
  const providerOrigin = new URL(providerUrl ?? defaultProviderUrl).origin
  // The wallet frame narrows the app's chains to these ids (bridge/chains.ts offeredChains). No
  // list: the frame URL names none, and the frame offers all the app's chains.
  const chains = options.chains ?? []
  if (!Array.isArray(chains) || (options.chains && !chains.length) || !chains.every((id) => Number.isSafeInteger(id) && id > 0))
    throw new Error('chains must be a non-empty list of chain ids')
  return {
    appId: options.appId,
    env,
    theme: oneOf('theme', options.theme, ['dark', 'light']),
    locale: oneOf('locale', options.locale, ['en', 'id']),
    mode: oneOf('mode', options.mode, ['frame', 'popup']),
    chains: [...new Set(chains)],
    handshakeTimeout: options.handshakeTimeout ?? 15_000,
    providerOrigin,
  }
}

/** The frame URL, built and read by one module (bridge/frame-url.ts). */
export { buildFrameUrl as frameUrl } from '../bridge/frame-url.ts'
