import { Hono, type Context } from 'hono'
import { decodeJwt } from 'jose'
import type { Deps } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import { parseEnvironment } from '../../services/app-config/apps.ts'
import { findApp } from '../../services/app-config/queries.ts'
import { verifyToken } from '../../services/auth/jwt.ts'
import { grantPermission, permissionOf } from '../../services/wallet/queries.ts'
import { page, pageHeaders } from '../page-view.ts'
import { askView, grantedView, invalidLinkView } from './views.ts'

/**
 * The account's permission-accept page: the link a 407 refusal carries (a wallet without the signing
 * permission may read, never sign or send; the kit opens this page in a new tab). Opening
 * it shows which wallet and app ask; confirming grants the signing permission.
 */
export function permissionRoutes(deps: Deps) {
  const html = (c: Context, status: 200 | 400, title: string, body: string) => c.html(page({ title, body }), status, pageHeaders())
  return new Hono()
    .get('/accept', async (c) => {
      const token = c.req.query('token') ?? ''
      const found = await lookUp(deps, token).catch(() => undefined)
      if (!found) return html(c, 400, 'Link expired', invalidLinkView(true))
      if (found.granted) return html(c, 200, 'Permission granted', grantedView(found.address))
      return html(c, 200, 'Permission needed', askView(found.appName, found.address, token))
    })
    .post('/accept', async (c) => {
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
      const token = typeof form.token === 'string' ? form.token : ''
      const found = await lookUp(deps, token).catch(() => undefined)
      if (!found) return html(c, 400, 'Link expired', invalidLinkView(false))
      await grantPermission(deps.store, found.walletId)
      return html(c, 200, 'Permission granted', grantedView(found.address))
    })
}

/** The wallet a permission token names; the token's audience says which app and environment to check it for. */
async function lookUp(deps: Deps, token: string) {
  const [appId, env] = String(decodeJwt(token).aud ?? '').split(':')
  const environment = parseEnvironment(env)
  const app = appId && environment ? await findApp(deps.store, appId, environment) : undefined
  if (!app) throw new HttpError(400, 'Invalid token')
  const { userId } = await verifyToken(deps.keys.jwtKey, token, { kind: 'permission', appId: app.appId, environment: app.environment })
  const wallet = await permissionOf(deps.store, userId)
  if (!wallet) throw new HttpError(400, 'Invalid token')
  return { walletId: wallet.id, address: wallet.address, granted: wallet.permission_granted, appName: app.name }
}
