import { Hono } from 'hono'
import type { Deps, SandboxEnv } from '../../context.ts'
import { authorize } from '../../http/bearer.ts'
import { readJson, requiredString } from '../../http/body.ts'
import { HttpError, ok } from '../../http/envelope.ts'
import { loginResult } from '../auth/login-answer.ts'
import { channelIdPattern, ChannelError, type PopupChannels } from './channel.ts'

/**
 * POST /api/v2/auth/handoff — the secure window hands its signed-in user to the frame that opened
 * it. The caller proves the session with its wallet token; the service starts a new session of the
 * same user (its own refresh family: the window's and the frame's refreshes never spend each
 * other's tokens) and puts it in the popup channel for the frame. The caller never sees it.
 * Mounted behind the app guard, which takes wallet-service calls from the provider's own pages only.
 */
export function handoffRoutes(deps: Deps & { channels: PopupChannels }) {
  const app = new Hono<SandboxEnv>()
  app.post('/handoff', async (c) => {
    const claims = await authorize(c, deps.keys.jwtKey, 'wallet')
    const channel = requiredString(await readJson(c), 'channel', 64)
    if (!channelIdPattern.test(channel)) throw new HttpError(400, 'channel must be a popup channel id')
    const result = await loginResult(deps, c.get('app'), claims.userId)
    if (!result.isWalletCreated) throw new HttpError(409, 'This user has no wallet to hand over')
    try {
      deps.channels.post(channel, 'popup', { type: 'session', result })
    } catch (error) {
      if (error instanceof ChannelError) throw new HttpError(error.status, error.message)
      throw error
    }
    return ok(c, { handedOff: true })
  })
  return app
}
