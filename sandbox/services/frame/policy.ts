import { appConfig, parseEnvironment } from '../app-config/apps.ts'
import { findAppAnyEnvironment } from '../app-config/queries.ts'
import type { Deps } from '../../context.ts'
import { providerScriptNeeds, providerScriptUrls, type SignInScriptProvider } from '../../../sdk/sign-in-scripts.ts'

/** What the wallet frame may reach beyond its own origin: origins (scheme://host[:port]) only. */
type WidgetSources = {
  /** The app's allowed origins, or 'none'. */
  frameAncestors: readonly string[]
  /** The chains' RPC URLs and, once the widget speaks WalletConnect, its relay. */
  connect: readonly string[]
  /** The provider's own icon service (under either loopback name) and the app's logo. */
  img: readonly string[]
}

/**
 * The wallet frame holds the session, so whatever might run in it (a compromised dependency, an
 * injected script) may load code only from the provider and talk only to the provider and the
 * chains. The build emits no inline script or style, and React's `style` props go through the
 * CSSOM, which style-src does not govern. Images: the provider's, data: URIs (wallet icons are
 * EIP-6963 data URIs) and the app's logo. Popups (social sign-in, the permission page) are
 * navigations, which the frame's CSP does not restrict; their own pages carry their own.
 */
function widgetPolicy({ frameAncestors, connect, img }: WidgetSources): string {
  const sources = (list: readonly string[]) => [...new Set(list)].join(' ')
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${sources(["'self'", 'data:', ...img])}`,
    `connect-src ${sources(["'self'", ...connect])}`,
    "object-src 'none'",
    "base-uri 'none'",
    `frame-ancestors ${sources(frameAncestors)}`,
  ].join('; ')
}

type FrameSources = WidgetSources & { script: string[]; frame: string[] }

/**
 * The frame's policy: widgetPolicy's with the providers' sign-in scripts the app uses
 * added to script-src, each by its exact URL, and Google's code client's pages to frame-src. The
 * stand-ins are on the provider origin, which 'self' already allows.
 */
export function framePolicy({ script, frame, ...sources }: FrameSources): string {
  const extra: Record<string, string[]> = { 'script-src': script, 'frame-src': frame }
  const directives = widgetPolicy(sources).split('; ')
  const named = (directive: string) => directive.split(' ')[0]!
  const withExtra = directives.map((directive) => [directive, ...new Set(extra[named(directive)] ?? [])].join(' '))
  // A directive the widget leaves to default-src ('self') keeps 'self' when it gets its own.
  for (const [name, list] of Object.entries(extra))
    if (list.length && !directives.some((directive) => named(directive) === name)) withExtra.push([name, "'self'", ...new Set(list)].join(' '))
  return withExtra.join('; ')
}

/**
 * What the frame of `appId` may reach (all its environments unless ?env= names one): framed by
 * the app's allowedOrigins, connecting to its chains' RPC URLs, showing its logo. An unknown app
 * gets 'none' to frame it and nothing beyond the provider itself.
 */
export async function widgetSources(deps: Deps, appId: string | undefined, env: string | undefined): Promise<FrameSources> {
  let apps = appId ? await findAppAnyEnvironment(deps.store, appId) : []
  if (env) {
    const environment = parseEnvironment(env)
    apps = apps.filter((app) => app.environment === environment)
  }
  const origins = [...new Set(apps.flatMap((app) => app.allowedOrigins))]
  const configs = apps.map((app) => appConfig(app, deps.chains, deps.origin()))
  // The providers' own scripts the apps use (app config passes only those sdk/sign-in-scripts.ts allows).
  const providers = (['google', 'apple', 'telegram'] as const).filter((provider: SignInScriptProvider) =>
    configs.some((config) => config[provider].enabled && config[provider].scriptUrl === providerScriptUrls[provider]),
  )
  return {
    script: providers.map((provider) => providerScriptUrls[provider]),
    frame: providers.flatMap((provider) => providerScriptNeeds[provider].frame),
    frameAncestors: origins.length ? origins : ["'none'"],
    connect: [
      ...configs.flatMap((config) => config.chains.flatMap((chain) => chain.rpcUrls)).flatMap((url) => originOf(url)),
      // The WalletConnect relay the frame's sign-client talks to (WalletConnect runs in the widget, not the host page).
      ...configs.flatMap((config) => originOf(config.walletConnect.relayUrl, ['wss:', 'ws:'])),
      ...providers.flatMap((provider) => providerScriptNeeds[provider].connect),
    ],
    img: [deps.origin(), ...configs.flatMap((config) => originOf(config.logoUrl))],
  }
}

/** The origin of a URL of one of `protocols` (http(s) unless named), as a CSP source; nothing for anything else (no paths, no keywords). */
function originOf(url: string | null, protocols: readonly string[] = ['https:', 'http:']): string[] {
  if (!url) return []
  try {
    const { protocol, origin } = new URL(url)
    return protocols.includes(protocol) ? [origin] : []
  } catch {
    return []
  }
}
