import { Hono } from 'hono'
import { appConfig } from './apps.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { ok } from '../../http/envelope.ts'
import { requireApp } from '../../http/guard.ts'

/** App config service, mounted at /api/v1. */
export function configRoutes(deps: Deps) {
  return new Hono<SandboxEnv>().get('/apps/config', requireApp(deps), (c) =>
    ok(
      c,
      appConfig(c.get('app'), deps.chains, deps.origin(), (chainId) => deps.smartAccounts.paymaster(chainId).address),
    ),
  )
}
