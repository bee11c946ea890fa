import { timingSafeEqual } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import { parseEnvironment, toApp, type App, type AppRow, type Environment } from '../app-config/apps.ts'
import { allAllowedOrigins } from '../app-config/queries.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import { isOriginAllowed } from '../../http/origins.ts'
import { bearerToken, tokenKindOf, verifyToken, type TokenClaims, type TokenKind } from './jwt.ts'
import { isFamilyRevoked } from './session-queries.ts'
import { cachedRow, type Store } from '../../infra/database/store.ts'

// Which app calls, and whether it is that app: its id and environment, its client secret or the
// provider's own origin, the origins it allows, and a bearer token's session still open. The
// bearer's claims, checked here once, are what the routes then ask for (`authorize`).

// No x-client-secret: a browser never holds the app's secret, so no page may be allowed to send one.
const allowHeaders = 'x-app-id, x-environment, authorization, content-type'

/**
 * CORS for /api/*. The provider's own origins (the widget) are granted everywhere. Host origins are
 * granted only the app config: every other service here answers to a back end holding the app's
 * secret, and a browser must never hold that, so a host page has nothing to read there.
 * A preflight carries no x-app-id, so it is answered for an origin any app allows; the real request
 * is then checked against its own app by `requireApp`.
 */
export function apiCors(deps: Deps): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin')
    c.header('Vary', 'Origin')
    if (c.req.method !== 'OPTIONS') return next()
    if (origin && (await corsOriginAllowed(deps, origin, c.req.path))) {
      c.header('Access-Control-Allow-Origin', origin)
      c.header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS')
      c.header('Access-Control-Allow-Headers', allowHeaders)
      c.header('Access-Control-Max-Age', '600')
    }
    return c.body(null, 204)
  }
}

/** The only /api path a page on a host origin calls itself. */
const hostReadablePath = '/api/v1/apps/config'

async function corsOriginAllowed(deps: Deps, origin: string, path: string): Promise<boolean> {
  if (deps.ownOrigins().includes(origin)) return true
  return path === hostReadablePath && isOriginAllowed(origin, await allAllowedOrigins(deps.store))
}

/**
 * Resolves the app from x-app-id / x-environment and checks the caller's origin and client secret,
 * and that a bearer wallet or access token's session has not been revoked: the app and the
 * session's state are read together, in one statement (appAndSession, below).
 * With `walletService`, a call without the secret is taken only from the provider's own origin
 * (the widget, which carries x-app-id and never a secret): otherwise a host page's script could run
 * the login itself and read the wallet tokens and secret0 the widget exists to keep from it.
 */
export function requireApp(deps: Deps, options: { walletService?: boolean } = {}): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin')
    // A browser sends no Origin on a same-origin GET; its Sec-Fetch-Site, which no page can set, says where it came from.
    const sameOriginRead = origin === undefined && c.req.method === 'GET' && c.req.header('sec-fetch-site') === 'same-origin'
    const own = sameOriginRead || (origin !== undefined && deps.ownOrigins().includes(origin))
    const appId = c.req.header('x-app-id')
    const environment = parseEnvironment(c.req.header('x-environment'))
    // Logout takes a revoked session's tokens: ending it twice is no error.
    const claims =
      appId && environment && c.req.path !== sessionEndPath
        ? await sessionBearer(deps.keys.jwtKey, { appId, environment }, c.req.header('authorization'))
        : undefined
    const found = appId && environment ? await appAndSession(deps.store, appId, environment, claims?.familyId) : undefined
    const app = found?.app
    if (!found || !app) {
      // No app to judge by yet: let an origin whose preflight passed read the error.
      if (origin && (await corsOriginAllowed(deps, origin, c.req.path))) c.header('Access-Control-Allow-Origin', origin)
      if (!appId) throw new HttpError(400, 'App ID is not set')
      if (!environment) throw new HttpError(400, 'Invalid environment')
      throw new HttpError(404, 'App not found')
    }

    if (origin && !own && !isOriginAllowed(origin, app.allowedOrigins)) throw new HttpError(403, 'Origin not allowed')
    // The wallet service grants CORS to the widget only; see apiCors.
    if (origin && (own || !options.walletService)) c.header('Access-Control-Allow-Origin', origin)
    // Back ends prove themselves with the secret; the widget by its origin.
    const secret = c.req.header('x-client-secret')
    if (secret !== undefined && !secretMatches(secret, app.clientSecret)) throw new HttpError(401, 'Invalid client secret')
    if (options.walletService && secret === undefined && !own) throw new HttpError(401, 'Client secret required')
    if (options.walletService && !app.settings.isEmbeddedWalletEnabled) throw new HttpError(403, 'Embedded wallet is not enabled')

    c.set('app', app)
    if (claims) {
      refuseEndedSession(claims, found.revoked)
      c.set('bearer', claims)
    }
    return next()
  }
}

/**
 * What the app guard reads for a call, in one statement: the app (undefined when there is none) and,
 * when the call carries a wallet or access token, whether that token's session (`familyId`) is
 * revoked. Kept like isFamilyRevoked's answer (session-queries.ts), until a statement writes either
 * table and for a second at most: an edit to an app shows within a second, a logout from the very
 * next call.
 */
async function appAndSession(
  store: Store,
  appId: string,
  environment: Environment,
  familyId: string | undefined,
): Promise<{ app: App | undefined; revoked: boolean }> {
  const tables = familyId === undefined ? ['apps'] : ['apps', 'refresh_tokens']
  const found = await cachedRow(store, tables, `${appId}\u0000${environment}\u0000${familyId ?? ''}`, async () => {
    // One row always (the app's columns null when there is none), so an unknown app is kept too.
    const { rows } = await store.query<Partial<AppRow> & { session_revoked: boolean }>(
      `SELECT apps.*, ($3::text IS NOT NULL AND EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $3 AND revoked_at IS NOT NULL)) AS session_revoked
       FROM (SELECT 1) AS one LEFT JOIN apps ON apps.app_id = $1 AND apps.environment = $2`,
      [appId, environment, familyId ?? null],
    )
    const row = rows[0]
    return row && { app: row.app_id === undefined || row.app_id === null ? undefined : toApp(row as AppRow), revoked: row.session_revoked }
  })
  return found ?? { app: undefined, revoked: true }
}

/**
 * Refuses a request whose bearer wallet or access token belongs to a revoked session (401 'Session
 * revoked'), or carries no session at all. Any other bearer, valid or not, is left to the route that
 * asks for it, so the route's own error stays what it was. A session is one login's refresh family,
 * named in every wallet and access token handed out for it (sessions.ts), so a logout or a reused
 * refresh token ends those tokens too before their 15 minutes are up. Answers the claims of a genuine
 * wallet or access token of an open session.
 */
export async function refuseRevokedBearer(store: Store, jwtKey: Uint8Array, app: App, authorization: string | undefined): Promise<TokenClaims | undefined> {
  const claims = await sessionBearer(jwtKey, app, authorization)
  if (claims) refuseEndedSession(claims, claims.familyId !== undefined && (await isFamilyRevoked(store, claims.familyId)))
  return claims
}

/** The claims of a genuine wallet or access token of this app; undefined for any other bearer or none. */
async function sessionBearer(jwtKey: Uint8Array, app: Pick<App, 'appId' | 'environment'>, authorization: string | undefined): Promise<TokenClaims | undefined> {
  if (authorization === undefined) return undefined
  let token: string
  try {
    token = bearerToken(authorization)
  } catch {
    return undefined
  }
  const kind = tokenKindOf(token)
  if (kind !== 'wallet' && kind !== 'access') return undefined
  try {
    return await verifyToken(jwtKey, token, { kind, appId: app.appId, environment: app.environment })
  } catch {
    return undefined
  }
}

function refuseEndedSession(claims: TokenClaims, revoked: boolean) {
  if (!claims.familyId) throw new HttpError(401, 'Invalid token')
  if (revoked) throw new HttpError(401, 'Session revoked')
}

/**
 * The claims of the request's `Authorization: Bearer` token, which must be of `kind` and for this app:
 * those the guard above has already checked, or (a token of another kind, a bad one, none) the
 * token checked here, so the route's 401 says what is wrong with it.
 */
export function authorize(c: Context<SandboxEnv>, jwtKey: Uint8Array, kind: TokenKind): Promise<TokenClaims> {
  const checked = c.get('bearer')
  if (checked?.kind === kind) return Promise.resolve(checked)
  const app = c.get('app')
  return verifyToken(jwtKey, bearerToken(c.req.header('authorization')), { kind, appId: app.appId, environment: app.environment })
}

const sessionEndPath = '/api/v2/wallet/logout'

export function secretMatches(given: string, expected: string | null): boolean {
  if (!expected) return false
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}
