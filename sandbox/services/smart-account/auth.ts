import type { MiddlewareHandler } from 'hono'
import { kitMarker } from '../../../sdk/smart-account/client.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import { checkTimestamp, hmacMatches, smartAccountStringToSign } from '../../http/request-signatures.ts'
import { findAppAnyEnvironment } from '../app-config/queries.ts'
import { refuseRevokedBearer } from '../auth/app-guard.ts'

/**
 * Authenticates a smart-account service call as sdk/ signs it (http/request-signatures.ts): HMAC-signed by the app's client secret
 * with a 5-minute window and no replays, or unsigned with the kit marker from the provider's own
 * origin (the widget; the routes then also want its wallet token). Sets the app.
 */
export function smartAccountAuth(deps: Deps): MiddlewareHandler<SandboxEnv> {
  return async (c, next) => {
    const appId = c.req.header('x-app-id')
    if (!appId) throw new HttpError(400, 'App ID is not set')
    // The environment named (the sdk always names it) picks the app: a back end of one environment
    // never reads or spends another's accounts or gas tank, even when their secrets are the same.
    const environment = c.req.header('x-environment')
    const apps = (await findAppAnyEnvironment(deps.store, appId)).filter((app) => environment === undefined || app.environment === environment)
    if (!apps.length) throw new HttpError(404, 'App not found')
    if (c.req.header(kitMarker.header) === kitMarker.value) {
      // Unsigned calls are the widget's, which runs on the provider origin only.
      if (!deps.ownOrigins().includes(c.req.header('origin') ?? '')) throw new HttpError(401, 'Unsigned requests are accepted from the wallet kit only')
      const app = apps[0]!
      // A logged-out session's wallet token is refused here as on the wallet service.
      await refuseRevokedBearer(deps.store, deps.keys.jwtKey, app, c.req.header('authorization'))
      c.set('app', app)
    } else {
      const timestamp = c.req.header('x-timestamp')
      const time = checkTimestamp(timestamp)
      const signature = c.req.header('x-signature') ?? ''
      const stringToSign = smartAccountStringToSign(c.req.method, c.req.path, await c.req.text(), timestamp!)
      const app = apps.find((candidate) => candidate.clientSecret && hmacMatches(candidate.clientSecret, stringToSign, signature))
      if (!app) throw new HttpError(401, 'Invalid request signature')
      await deps.replays.reject(`hmac:${app.appId}:${app.environment}`, stringToSign, time)
      c.set('app', app)
    }
    if (!c.get('app').settings.isAAEnabled) throw new HttpError(403, 'Smart accounts are not enabled for this app')
    return next()
  }
}
