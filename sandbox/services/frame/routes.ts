import { Hono, type Context } from 'hono'
import type { Deps } from '../../context.ts'
import { serveAsset, serveBuiltFile } from '../../http/static.ts'
import { appConfigElementId } from '../../../sdk/app-config.ts'
import { parseEnvironment } from '../app-config/apps.ts'
import { findApp } from '../app-config/queries.ts'
import { publicAppConfig } from '../app-config/routes.ts'
import { framePolicy, widgetSources } from './policy.ts'

/** The built kit and widget (dist/), read per request so a rebuild shows up without a restart. */
export function frameRoutes(deps: Deps) {
  const widgetIndex = async (c: Context) => {
    const appId = c.req.query('appId')
    const env = c.req.query('env')
    const config = await frameAppConfig(deps, appId, env)
    return serveBuiltFile(
      c,
      deps.distDir,
      'widget/index.html',
      { 'Content-Security-Policy': framePolicy(await widgetSources(deps, appId, env)) },
      config && ((html) => withAppConfig(html, config)),
    )
  }
  return new Hono()
    .get('/kit.js', (c) => serveBuiltFile(c, deps.distDir, 'kit/kit.js'))
    .get('/widget', (c) => c.redirect(`/widget/${new URL(c.req.url).search}`, 301))
    .get('/widget/', widgetIndex)
    .get('/widget/index.html', widgetIndex)
    .get('/widget/assets/*', (c) => serveAsset(c, deps.distDir, 'widget', c.req.path.slice('/widget/assets/'.length)))
}

/** The app config of the frame's app and environment, as GET /apps/config answers it; none for an unknown app. */
async function frameAppConfig(deps: Deps, appId: string | undefined, env: string | undefined) {
  const environment = env === undefined ? undefined : parseEnvironment(env)
  const app = appId && environment ? await findApp(deps.store, appId, environment) : undefined
  return app && publicAppConfig(deps, app)
}

/**
 * The frame's page with its app config in it, as data the frame reads at start (widget/config-read.ts):
 * its first load then asks the network for nothing before it answers the page. JSON in a data block,
 * never run (the CSP's script-src does not apply to it); every `<` is escaped, so nothing in the
 * config (an app's name) can end the block or open another element.
 */
export function withAppConfig(html: string, config: object): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c')
  return html.replace('</head>', `<script type="application/json" id="${appConfigElementId}">${json}</script></head>`)
}
