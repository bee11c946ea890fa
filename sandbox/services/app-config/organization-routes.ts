import { Hono } from 'hono'
import type { Deps, SandboxEnv } from '../../context.ts'
import { ok } from '../../http/exchange.ts'
import { isRampEnabled } from '../ramp/ramp-accounts.ts'

/** GET /api/v2/organization: the app's ramp switch and its (publishable) ramp client secret. */
export function organizationRoutes(_deps: Deps) {
  return new Hono<SandboxEnv>().get('/', (c) => {
    const app = c.get('app')
    return ok(c, {
      appId: app.appId,
      name: app.name,
      isRampableEnabled: isRampEnabled(app),
      rampableClientSecret: app.settings.rampableClientSecret,
    })
  })
}
