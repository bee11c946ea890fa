import { Hono, type Context } from 'hono'
import { decodeJwt } from 'jose'
import { findApp, parseEnvironment } from '../../services/app-config/apps.ts'
import type { Deps } from '../../context.ts'
import { HttpError } from '../../http/envelope.ts'
import { escapeHtml, page, pageHeaders } from '../page-view.ts'
import { verifyToken } from '../../services/auth/jwt.ts'

/**
 * The account's permission-accept page (SPEC.md section 6): the link a 407 refusal carries. Opening
 * it shows which wallet and app ask; confirming grants the signing permission.
 */
export function permissionRoutes(deps: Deps) {
  const html = (c: Context, status: 200 | 400, title: string, body: string) =>
    c.html(page({ title, body }), status, pageHeaders())
  return new Hono()
    .get('/accept', async (c) => {
      const token = c.req.query('token') ?? ''
      const found = await lookUp(deps, token).catch(() => undefined)
      if (!found) return html(c, 400, 'Link expired', '<h1>This link is invalid or has expired</h1><p>Try the signing request again to get a new one.</p>')
      if (found.granted) return html(c, 200, 'Permission granted', granted(found.address))
      return html(
        c,
        200,
        'Permission needed',
        `<h1>Permission needed</h1><p><b>${escapeHtml(found.appName)}</b> asks to let your wallet sign messages and send transactions.</p>
<p>Wallet <code>${escapeHtml(found.address)}</code></p>
<form method="post" action="/permission/accept"><input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Grant permission</button></form>`,
      )
    })
    .post('/accept', async (c) => {
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
      const token = typeof form.token === 'string' ? form.token : ''
      const found = await lookUp(deps, token).catch(() => undefined)
      if (!found) return html(c, 400, 'Link expired', '<h1>This link is invalid or has expired</h1>')
      await deps.store.query('UPDATE wallets SET permission_granted = true WHERE id = $1', [found.walletId])
      return html(c, 200, 'Permission granted', granted(found.address))
    })
}

const granted = (address: string) =>
  `<h1>Permission granted</h1><p>Wallet <code>${escapeHtml(address)}</code> can sign again. You can close this tab and retry the request.</p>`

/** The wallet a permission token names; the token's audience says which app and environment to check it for. */
async function lookUp(deps: Deps, token: string) {
  const [appId, env] = String(decodeJwt(token).aud ?? '').split(':')
  const environment = parseEnvironment(env)
  const app = appId && environment ? await findApp(deps.store, appId, environment) : undefined
  if (!app) throw new HttpError(400, 'Invalid token')
  const { userId } = await verifyToken(deps.keys.jwtKey, token, { kind: 'permission', appId: app.appId, environment: app.environment })
  const { rows } = await deps.store.query<{ id: string; address: string; permission_granted: boolean }>(
    'SELECT id, address, permission_granted FROM wallets WHERE user_id = $1',
    [userId],
  )
  const wallet = rows[0]
  if (!wallet) throw new HttpError(400, 'Invalid token')
  return { walletId: wallet.id, address: wallet.address, granted: wallet.permission_granted, appName: app.name }
}
