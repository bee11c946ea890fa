import { type BaseUrls, isPrivateChannel } from '../sdk/config.ts'

/**
 * Where the frame's services live: the four service base URLs (as the sdk takes them) and the
 * provider's hosted on-ramp page that Buy opens. By default all of them are on the frame's own
 * origin (the sandbox, or a provider serving everything from one host). A provider overrides any of
 * them where it deploys the frame, never from the page that embeds it:
 * - at build time: WALLET_KIT_WALLET_URL, WALLET_KIT_SMART_ACCOUNT_URL, WALLET_KIT_RAMP_URL,
 *   WALLET_KIT_APP_CONFIG_URL, WALLET_KIT_ONRAMP_URL (vite.config.ts builds them in);
 * - at deploy time: `<meta name="wallet-kit:wallet" content="https://…">` (and :smartAccount,
 *   :ramp, :appConfig, :onramp) in the frame's index.html, which wins over the build. It is part of
 *   the page the frame already loads, so it costs no request before the first call.
 * The frame's URL query and its messages are not read here: the host page has no say in them.
 */
export type Deployment = BaseUrls & {
  /** The hosted on-ramp page; Buy opens it with its query appended. */
  onramp: string
}

export type DeploymentKey = keyof Deployment

/** Each URL on the frame's own origin, when nothing names another. */
const samePath: Deployment = { wallet: '/api/v2', smartAccount: '/api/v1', ramp: '/v1', appConfig: '/api/v1', onramp: '/onramp' }

/** Set by vite.config.ts (`define`) from the WALLET_KIT_*_URL variables; absent outside a Vite build. */
declare const __WALLET_KIT_DEPLOYMENT__: Partial<Deployment> | undefined

/**
 * The URLs for a frame on `origin`: each from the last source that names it, else same-origin.
 * Throws, naming the setting and why, for a value that is not an absolute https URL (plain http
 * only to this machine), or that carries credentials, a query or a fragment.
 */
export function resolveDeployment(origin: string, ...sources: Partial<Record<DeploymentKey, string | null | undefined>>[]): Deployment {
  const out = {} as Deployment
  for (const key of Object.keys(samePath) as DeploymentKey[]) {
    let value: string | null | undefined
    for (const source of sources) value = source[key] ?? value
    out[key] = value == null ? origin + samePath[key] : checked(key, value, origin)
  }
  return out
}

/**
 * Plain http only to this machine, and only for a frame that is itself on this machine: a frame served
 * over https and built with a leftover loopback URL would hand its tokens to whatever listens on the
 * visitor's own port.
 */
function checked(key: DeploymentKey, value: string, origin: string): string {
  const url = URL.canParse(value) && new URL(value)
  const why = !url
    ? 'is not an absolute URL'
    : url.username || url.password
      ? 'carries credentials'
      : /[?#]/.test(value)
        ? 'has a query or fragment'
        : isPrivateChannel(value) && (url.protocol === 'https:' || (isPrivateChannel(origin) && new URL(origin).protocol === 'http:'))
          ? ''
          : 'is not https (plain http only to this machine, from a frame on this machine)'
  if (why || !url) throw new Error(`wallet-kit: the frame's ${key} URL ${why}`)
  return url.href.replace(/\/+$/, '')
}

/** The `<meta name="wallet-kit:…">` values of `doc`'s head: the deploy-time settings. */
export function metaDeployment(doc: Document): Partial<Deployment> {
  const found: Partial<Deployment> = {}
  for (const meta of doc.head.querySelectorAll<HTMLMetaElement>('meta[name^="wallet-kit:"]')) {
    const key = meta.name.slice(11) as DeploymentKey
    // A misspelt name would leave that service quietly on the frame's own origin.
    if (!Object.hasOwn(samePath, key)) throw new Error(`wallet-kit: unknown <meta name="${meta.name}">`)
    found[key] = meta.content
  }
  return found
}

/** The build-time settings: the WALLET_KIT_*_URL variables of `env` that are set (vite.config.ts). */
export function buildDeployment(env: Record<string, string | undefined>): Partial<Deployment> {
  const found: Partial<Deployment> = {}
  for (const key of Object.keys(samePath) as DeploymentKey[]) {
    const value = env[`WALLET_KIT_${key.replace(/[A-Z]/g, '_$&').toUpperCase()}_URL`]
    if (value) found[key] = value
  }
  return found
}

let resolved: Deployment | undefined

/**
 * This frame's URLs, read once, when it starts (before it renders anything), then kept for the
 * page's life: nothing the page does later changes where tokens go.
 */
export function deployment(): Deployment {
  resolved ??= resolveDeployment(location.origin, typeof __WALLET_KIT_DEPLOYMENT__ === 'object' ? __WALLET_KIT_DEPLOYMENT__ : {}, metaDeployment(document))
  return resolved
}
