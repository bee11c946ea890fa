import { Hono } from 'hono'
import type { Deps, SandboxEnv } from '../../context.ts'
import { HttpError, ok, readJson, requiredString, onlyFields } from '../../http/exchange.ts'
import { consumeRefreshToken, issueRefreshToken, revokeSessions, sessionNamedBy } from '../auth/sessions.ts'
import { bearerToken, signToken, tokenKindOf } from '../auth/jwt.ts'
import { findWallet } from '../account/queries.ts'
import { refreshRampToken } from '../ramp/ramp-accounts.ts'
import { authorize } from '../auth/app-guard.ts'

/**
 * Wallet routes of the wallet service (/api/v2/wallet): session refresh and logout, address. The
 * signing, sending and read calls are sign-routes.ts, send-routes.ts and read-routes.ts, mounted next to these.
 */
export function walletRoutes(deps: Deps) {
  const networks = new Set(['evm', ...deps.chains.map((chain) => chain.network)])
  return new Hono<SandboxEnv>()
    .post('/address', async (c) => {
      const { userId } = await authorize(c, deps.keys.jwtKey, 'wallet')
      const network = requiredString(await readJson(c), 'network', 64)
      if (!networks.has(network)) throw new HttpError(400, 'Unsupported network')
      const wallet = await findWallet(deps.store, userId)
      if (!wallet) throw new HttpError(404, 'Wallet not found')
      return ok(c, { address: wallet.address })
    })
    .post('/refresh-rampable', async (c) => {
      const app = c.get('app')
      const { userId } = await authorize(c, deps.keys.jwtKey, 'wallet')
      const body = await readJson(c)
      onlyFields(body, ['rampableAccessToken'])
      const rampableAccessToken = requiredString(body, 'rampableAccessToken', 4096)
      return ok(c, { rampableAccessToken: await refreshRampToken(deps, app, userId, rampableAccessToken) })
    })
    .post('/logout', async (c) => {
      const app = c.get('app')
      const body = await readJson(c)
      onlyFields(body, ['refreshToken'])
      const refreshToken = body.refreshToken === undefined ? undefined : requiredString(body, 'refreshToken', 4096)
      const authorization = c.req.header('authorization')
      if (authorization === undefined && refreshToken === undefined) throw new HttpError(401, 'Missing bearer token')
      // Either token names the session. Each one given must be genuine, or nothing is revoked.
      const sessions = new Set<string>()
      if (authorization !== undefined) {
        const bearer = bearerToken(authorization)
        // The access token of a login that has not created its wallet yet names its session too.
        sessions.add(await sessionNamedBy(deps.keys.jwtKey, app, bearer, tokenKindOf(bearer) === 'access' ? 'access' : 'wallet'))
      }
      if (refreshToken !== undefined) sessions.add(await sessionNamedBy(deps.keys.jwtKey, app, refreshToken, 'refresh'))
      await revokeSessions(deps.store, [...sessions])
      return ok(c, null)
    })
    .post('/refresh', async (c) => {
      const app = c.get('app')
      const refreshToken = requiredString(await readJson(c), 'refreshToken', 4096)
      const row = await consumeRefreshToken(deps.store, deps.keys.jwtKey, app, refreshToken)
      if (!(await findWallet(deps.store, row.user_id))) throw new HttpError(404, 'Wallet not found')
      const claims = { userId: row.user_id, appId: app.appId, environment: app.environment, familyId: row.family_id }
      return ok(c, {
        walletToken: await signToken(deps.keys.jwtKey, { kind: 'wallet', ...claims }),
        // The successor keeps the family and never outlives the session it rotates.
        refreshToken: await issueRefreshToken(deps.store, deps.keys.jwtKey, app, row.user_id, {
          familyId: row.family_id,
          expiresAt: new Date(row.expires_at),
        }),
      })
    })
}
