import { Hono } from 'hono'
import type { Deps, SandboxEnv } from '../../context.ts'
import { authorize } from '../auth/app-guard.ts'
import { readJson, requiredString, HttpError, ok } from '../../http/exchange.ts'
import { clientIp } from '../../http/rate-limit.ts'
import { loginResult } from '../auth/login-answer.ts'
import { familyExpiry } from '../auth/session-queries.ts'
import { channelIdPattern, ChannelError, type PopupChannels } from './channel.ts'

/**
 * POST /api/v2/auth/handoff — the secure window hands its signed-in user to the frame that opened
 * it. The caller proves the session with its wallet token; the service gives the frame a refresh
 * token of its own in that same session (each rotates its own token, so neither spends the other's)
 * and puts it in the popup channel for the frame, once per channel.
 *
 * Whoever holds a wallet token can call this (a script sets any Origin it likes) and read the
 * channel it named, so what it gets is bounded by what it had: the handed-over token belongs to the
 * same session, ends with it (logout, or a reused refresh token, revokes them all) and never
 * outlives it. A 15-minute wallet token cannot become a session of its own.
 * Mounted behind the app guard, which takes wallet-service calls from the provider's own pages only.
 */
export function handoffRoutes(deps: Deps & { channels: PopupChannels }) {
  const app = new Hono<SandboxEnv>()
  app.post('/handoff', async (c) => {
    const claims = await authorize(c, deps.keys.jwtKey, 'wallet')
    const channel = requiredString(await readJson(c), 'channel', 64)
    if (!channelIdPattern.test(channel)) throw new HttpError(400, 'channel must be a popup channel id')
    if (!claims.familyId) throw new HttpError(401, 'Invalid token')
    deps.limiter.hit('handoffsPerIp', clientIp(c))
    deps.limiter.hit('handoffsPerSession', claims.familyId)
    // Checked before any token is made: a refused post leaves no session behind.
    if (!deps.channels.accepts(channel, 'popup', 'session')) throw new HttpError(409, 'This channel cannot take a session')
    const expiresAt = await familyExpiry(deps.store, claims.familyId)
    if (!expiresAt) throw new HttpError(401, 'Session revoked')
    const result = await loginResult(deps, c.get('app'), claims.userId, { familyId: claims.familyId, expiresAt })
    if (!result.isWalletCreated) throw new HttpError(409, 'This user has no wallet to hand over')
    try {
      deps.channels.post(channel, 'popup', { type: 'session', result }, clientIp(c), { once: 'session' })
    } catch (error) {
      if (error instanceof ChannelError) throw new HttpError(error.status, error.message)
      throw error
    }
    return ok(c, { handedOff: true })
  })
  return app
}
