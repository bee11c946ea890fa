import type { App } from '../app-config/apps.ts'
import type { Deps } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import { signToken, verifyToken } from '../auth/jwt.ts'
import { hasRampAccount, insertRampAccount } from './queries.ts'

// The ramp account behind `rampableAccessToken`: opened once per user, answered as a 1-hour JWT
// the ramp service accepts as `Authorization: Bearer`. An app has ramp when it has a ramp client secret.

export const isRampEnabled = (app: App) => Boolean(app.settings.rampableClientSecret)

export async function openRampAccount(deps: Deps, app: App, userId: string): Promise<string> {
  if (!isRampEnabled(app)) throw new HttpError(403, 'Rampable is not enabled for this app')
  await insertRampAccount(deps.store, userId)
  return signToken(deps.keys.jwtKey, { kind: 'ramp', userId, appId: app.appId, environment: app.environment })
}

/** A new ramp token for the old one, which may have expired up to a week ago but must be the same user's. */
export async function refreshRampToken(deps: Deps, app: App, userId: string, oldToken: string): Promise<string> {
  const claims = await verifyToken(deps.keys.jwtKey, oldToken, {
    kind: 'ramp',
    appId: app.appId,
    environment: app.environment,
    clockToleranceSeconds: 7 * 24 * 60 * 60,
  })
  if (claims.userId !== userId) throw new HttpError(401, 'Invalid token')
  if (!(await hasRampAccount(deps.store, userId))) throw new HttpError(404, 'Ramp account not found')
  return signToken(deps.keys.jwtKey, { kind: 'ramp', userId, appId: app.appId, environment: app.environment })
}
