import { Hono, type MiddlewareHandler } from 'hono'
import { appConfig, type App } from './apps.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { ok } from '../../http/exchange.ts'

/** App config service, mounted at /api/v1. `appGuard` (services/auth/app-guard.ts requireApp) sets which app asks. */
export function configRoutes(deps: Deps, appGuard: MiddlewareHandler<SandboxEnv>) {
  return new Hono<SandboxEnv>().get('/apps/config', appGuard, (c) => ok(c, publicAppConfig(deps, c.get('app'))))
}

/** What GET /apps/config answers for `app`; the wallet frame's page carries the same (services/frame/routes.ts). */
export const publicAppConfig = (deps: Deps, app: App) => appConfig(app, deps.chains, deps.origin(), (chainId) => deps.smartAccounts.paymaster(chainId).address)
