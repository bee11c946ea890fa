import { timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { allAllowedOrigins, findApp, parseEnvironment } from './apps.ts'
import type { Deps, SandboxEnv } from './context.ts'
import { HttpError } from './envelope.ts'
import { isOriginAllowed } from './origins.ts'

const allowHeaders = 'x-app-id, x-environment, authorization, content-type, x-client-secret'

/**
 * CORS for /api/*: the request Origin is reflected only when the app named by x-app-id allows it.
 * A preflight carries no x-app-id, so it is answered for an origin any app allows; the real request
 * is then checked against its own app by `requireApp`.
 */
export function apiCors(deps: Deps): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin')
    c.header('Vary', 'Origin')
    if (c.req.method !== 'OPTIONS') return next()
    if (origin && isOriginAllowed(origin, [...deps.ownOrigins(), ...(await allAllowedOrigins(deps.store))])) {
      c.header('Access-Control-Allow-Origin', origin)
      c.header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS')
      c.header('Access-Control-Allow-Headers', allowHeaders)
      c.header('Access-Control-Max-Age', '600')
    }
    return c.body(null, 204)
  }
}

/** Resolves the app from x-app-id / x-environment and checks the caller's origin and client secret. */
export function requireApp(deps: Deps, options: { walletService?: boolean } = {}): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin')
    const appId = c.req.header('x-app-id')
    const environment = parseEnvironment(c.req.header('x-environment'))
    const app = appId && environment ? await findApp(deps.store, appId, environment) : undefined
    if (!app) {
      // No app to judge by yet: let any origin some app allows read the error, as its preflight passed.
      if (origin && isOriginAllowed(origin, [...deps.ownOrigins(), ...(await allAllowedOrigins(deps.store))]))
        c.header('Access-Control-Allow-Origin', origin)
      if (!appId) throw new HttpError(400, 'App ID is not set')
      if (!environment) throw new HttpError(400, 'Invalid environment')
      throw new HttpError(404, 'App not found')
    }

    if (origin) {
      if (!deps.ownOrigins().includes(origin) && !isOriginAllowed(origin, app.allowedOrigins))
        throw new HttpError(403, 'Origin not allowed')
      c.header('Access-Control-Allow-Origin', origin)
    }
    // Back ends prove themselves with the secret; browsers are identified by the origin check above.
    const secret = c.req.header('x-client-secret')
    if (secret !== undefined && !secretMatches(secret, app.clientSecret)) throw new HttpError(401, 'Invalid client secret')
    if (options.walletService && !app.settings.isEmbeddedWalletEnabled) throw new HttpError(403, 'Embedded wallet is not enabled')

    c.set('app', app)
    return next()
  }
}

function secretMatches(given: string, expected: string | null): boolean {
  if (!expected) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
