import { Hono } from 'hono'
import type { Deps, SandboxEnv } from '../../context.ts'
import { onlyFields, readJson, ok } from '../../http/exchange.ts'
import { authorize } from '../auth/app-guard.ts'
import { stepUpSession } from '../step-up/step-up.ts'
import { changeThreshold, networkOfChainId, readThreshold, thresholdsOf } from './user-threshold.ts'

/**
 * The user's own step-up thresholds (/api/v2/wallet/step-up-thresholds), with the wallet token:
 * read them all (with the app's and the effective one per chain), set or remove one chain's.
 */
export function userThresholdRoutes(deps: Deps) {
  return new Hono<SandboxEnv>()
    .get('/step-up-thresholds', async (c) => {
      const { userId } = await authorize(c, deps.keys.jwtKey, 'wallet')
      c.header('Cache-Control', 'no-store')
      return ok(c, { thresholds: await thresholdsOf(deps, c.get('app'), userId) })
    })
    .put('/step-up-thresholds/:chainId', async (c) => {
      const session = stepUpSession(await authorize(c, deps.keys.jwtKey, 'wallet'))
      const body = await readJson(c)
      onlyFields(body, ['amount', 'stepUpProof'])
      const { chain } = networkOfChainId(deps, c.req.param('chainId'))
      const above = readThreshold(body.amount, chain.nativeCurrency.decimals)
      await changeThreshold(deps, c.get('app'), session, chain.chainId, above, body.stepUpProof)
      return ok(c, { thresholds: await thresholdsOf(deps, c.get('app'), session.userId) })
    })
    .delete('/step-up-thresholds/:chainId', async (c) => {
      const session = stepUpSession(await authorize(c, deps.keys.jwtKey, 'wallet'))
      const body = await readJson(c)
      onlyFields(body, ['stepUpProof'])
      const { chain } = networkOfChainId(deps, c.req.param('chainId'))
      await changeThreshold(deps, c.get('app'), session, chain.chainId, null, body.stepUpProof)
      return ok(c, { thresholds: await thresholdsOf(deps, c.get('app'), session.userId) })
    })
}
