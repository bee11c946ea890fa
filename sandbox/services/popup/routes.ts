import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { clientIp } from '../../http/rate-limit.ts'
import { ChannelError, type PopupChannels, type Side } from './channel.ts'

const sides: readonly Side[] = ['frame', 'popup']

/**
 * /popup-channel/:id/:side — the frame and its secure window talk here (channel.ts). Only pages of
 * the provider's own origin may: a request that a browser marks as coming from anywhere else (its
 * Origin, or Sec-Fetch-Site) is refused, so a host page cannot write into or read a channel even if
 * it guessed a name. POST writes a message from `side`; GET reads what the other side wrote to `side`.
 */
export function popupChannelRoutes(deps: { channels: PopupChannels; ownOrigins(): readonly string[] }) {
  const app = new Hono()
  const check = (c: Context): { id: string; side: Side } | Response => {
    const origin = c.req.header('origin')
    const site = c.req.header('sec-fetch-site')
    if ((origin !== undefined && !deps.ownOrigins().includes(origin)) || (site !== undefined && site !== 'same-origin'))
      return c.json({ error: 'Only the wallet itself may use this channel' }, 403)
    const side = c.req.param('side') as Side
    if (!sides.includes(side)) return c.json({ error: 'Unknown side' }, 404)
    c.header('Cache-Control', 'no-store')
    return { id: c.req.param('id')!, side }
  }
  const refuse = (c: Context, error: unknown) => {
    if (error instanceof ChannelError) return c.json({ error: error.message }, error.status)
    throw error
  }

  app.post('/:id/:side', bodyLimit({ maxSize: 20 * 1024, onError: (c) => c.json({ error: 'Message too large' }, 413) }), async (c) => {
    const at = check(c)
    if (at instanceof Response) return at
    if (!(c.req.header('content-type') ?? '').startsWith('application/json')) return c.json({ error: 'Send JSON' }, 415)
    let message: unknown
    try {
      message = await c.req.json()
    } catch {
      return c.json({ error: 'Malformed JSON' }, 400)
    }
    try {
      deps.channels.post(at.id, at.side, message, clientIp(c))
    } catch (error) {
      return refuse(c, error)
    }
    return c.body(null, 204)
  })

  app.get('/:id/:side', async (c) => {
    const at = check(c)
    if (at instanceof Response) return at
    try {
      const wait = c.req.query('wait')
      const options = { signal: c.req.raw.signal, waitMs: wait === undefined ? undefined : Number(wait) || 0, client: clientIp(c) }
      return c.json(await deps.channels.read(at.id, at.side, Number(c.req.query('after') ?? '0'), options))
    } catch (error) {
      return refuse(c, error)
    }
  })
  return app
}
