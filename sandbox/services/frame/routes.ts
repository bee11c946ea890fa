import { Hono, type Context } from 'hono'
import type { Deps } from '../../context.ts'
import { serveAsset, serveBuiltFile } from '../../http/static.ts'
import { framePolicy, widgetSources } from './policy.ts'

/** The built kit and widget (dist/), read per request so a rebuild shows up without a restart. */
export function frameRoutes(deps: Deps) {
  const widgetIndex = async (c: Context) =>
    serveBuiltFile(c, deps.distDir, 'widget/index.html', {
      'Content-Security-Policy': framePolicy(await widgetSources(deps, c.req.query('appId'), c.req.query('env'))),
    })
  return new Hono()
    .get('/kit.js', (c) => serveBuiltFile(c, deps.distDir, 'kit/kit.js'))
    .get('/widget', (c) => c.redirect(`/widget/${new URL(c.req.url).search}`, 301))
    .get('/widget/', widgetIndex)
    .get('/widget/index.html', widgetIndex)
    .get('/widget/assets/*', (c) => serveAsset(c, deps.distDir, 'widget', c.req.path.slice('/widget/assets/'.length)))
}
