import { readFile, stat } from 'node:fs/promises'
import { extname, join, resolve, sep } from 'node:path'
import { Hono, type Context } from 'hono'
import { appConfig, parseEnvironment } from '../services/app-config/apps.ts'
import { findAppAnyEnvironment } from '../services/app-config/queries.ts'
import type { Deps } from '../context.ts'
import { widgetPolicy, type WidgetSources } from '../emulators/page-view.ts'
import { providerScriptNeeds, providerScriptUrls, type SignInScriptProvider } from '../../sdk/sign-in-scripts.ts'

const contentTypes: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
}

/** The built kit and widget (dist/), read per request so a rebuild shows up without a restart. */
export function staticRoutes(deps: Deps) {
  const widgetIndex = async (c: Context) =>
    serveBuiltPage(c, deps.distDir, 'widget/index.html', {
      'Content-Security-Policy': framePolicy(await widgetSources(deps, c.req.query('appId'), c.req.query('env'))),
    })
  return new Hono()
    .get('/kit.js', async (c) => {
      const file = await readDist(deps.distDir, 'kit/kit.js')
      if (!file) return notBuilt(c)
      return c.body(new Uint8Array(file), 200, { 'Content-Type': contentTypes['.js'] ?? '', 'Cache-Control': 'no-cache' })
    })
    .get('/widget', (c) => c.redirect(`/widget/${new URL(c.req.url).search}`, 301))
    .get('/widget/', widgetIndex)
    .get('/widget/index.html', widgetIndex)
    .get('/widget/assets/*', (c) => serveAsset(c, deps.distDir, 'widget', c.req.path.slice('/widget/assets/'.length)))
}

type FrameSources = WidgetSources & { script: string[]; frame: string[] }

/**
 * The frame's policy: the widget's (page-view.ts) with the providers' sign-in scripts the app uses
 * added to script-src, each by its exact URL, and Google's code client's pages to frame-src. The
 * stand-ins are on the provider origin, which 'self' already allows.
 */
function framePolicy({ script, frame, ...sources }: FrameSources): string {
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
async function widgetSources(deps: Deps, appId: string | undefined, env: string | undefined): Promise<FrameSources> {
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
      // The WalletConnect relay the frame's sign-client talks to (DESIGN.md: WalletConnect lives in the widget).
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

/** A file of dist/<app>/assets/ (Vite puts a content hash in every name, so they never change); 404 outside it. */
export async function serveAsset(c: Context, distDir: string, app: string, relative: string) {
  const assets = resolve(distDir, app, 'assets')
  const path = resolve(assets, relative)
  if (!path.startsWith(assets + sep)) return c.text('Not found', 404)
  const file = await readFile(path).catch(() => undefined)
  if (!file) return (await exists(distDir)) ? c.text('Not found', 404) : notBuilt(c)
  return c.body(new Uint8Array(file), 200, {
    'Content-Type': contentTypes[extname(path)] ?? 'application/octet-stream',
    'Cache-Control': 'public, max-age=31536000, immutable',
  })
}

/** A built page's HTML (dist/<path>), read per request so a rebuild shows up without a restart. */
export async function serveBuiltPage(c: Context, distDir: string, path: string, headers: Record<string, string>) {
  const file = await readDist(distDir, path)
  if (!file) return notBuilt(c)
  return c.body(new Uint8Array(file), 200, { 'Content-Type': contentTypes['.html'] ?? 'text/html', 'Cache-Control': 'no-cache', ...headers })
}

const notBuilt = (c: Context) => c.text('Run npm run build first', 503, { 'Cache-Control': 'no-store' })

const readDist = (distDir: string, path: string) => readFile(join(distDir, path)).catch(() => undefined)

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )
