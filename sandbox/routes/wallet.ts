import { Hono } from 'hono'
import type { Deps, SandboxEnv } from '../context.ts'
import { HttpError, ok } from '../envelope.ts'
import { consumeRefreshToken, issueRefreshToken } from '../sessions.ts'
import { signToken } from '../tokens.ts'
import { readJson, requiredString } from '../validate.ts'
import { findWallet } from '../wallets.ts'
import { authorize } from './bearer.ts'

/** Wallet routes of the wallet service (/api/v2/wallet). Signing and sending operations join in a later phase. */
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
    .post('/refresh', async (c) => {
      const app = c.get('app')
      const refreshToken = requiredString(await readJson(c), 'refreshToken', 4096)
      const row = await consumeRefreshToken(deps.store, deps.keys.jwtKey, app, refreshToken)
      if (!(await findWallet(deps.store, row.user_id))) throw new HttpError(404, 'Wallet not found')
      const claims = { userId: row.user_id, appId: app.appId, environment: app.environment }
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
