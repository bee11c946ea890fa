import { Hono } from 'hono'
import type { Deps, SandboxEnv } from '../../context.ts'
import { onlyFields, readJson, requiredString, ok } from '../../http/exchange.ts'
import { clientIp } from '../../http/rate-limit.ts'
import { authorize } from '../auth/app-guard.ts'
import { stepUpFactors } from './factors.ts'
import { readAction, readFactors, readRequestHash, startStepUp, stepUpSession, verifyStepUp } from './step-up.ts'

/**
 * Step-up (/api/v2/auth/step-up/...), bearer wallet token, behind the wallet service's app guard:
 * `start { action, request?, factors? }` asks the user's second factor (a passkey assertion when the
 * client lists `passkey` in `factors` and the user has one, else a code to their e-mail) and answers a
 * challenge id; `verify { challengeId, code | credential }` answers a single-use proof for that action. Counted
 * against the same per-IP budgets as the login codes' requests and checks; a code's wrong answers
 * are counted for the session (step-up.ts).
 */
export function stepUpRoutes(deps: Deps) {
  const answerFields = [...new Set(stepUpFactors.flatMap((f) => f.answerFields))]
  return new Hono<SandboxEnv>()
    .post('/step-up/start', async (c) => {
      const session = stepUpSession(await authorize(c, deps.keys.jwtKey, 'wallet'))
      deps.limiter.hit('codesPerIp', clientIp(c))
      const body = await readJson(c)
      onlyFields(body, ['action', 'request', 'factors'])
      const action = readAction(body.action)
      const requestHash = readRequestHash(body.request)
      const factors = readFactors(body.factors)
      c.header('Cache-Control', 'no-store')
      return ok(c, await startStepUp(deps, c.get('app'), session, action, requestHash, factors))
    })
    .post('/step-up/verify', async (c) => {
      const session = stepUpSession(await authorize(c, deps.keys.jwtKey, 'wallet'))
      deps.limiter.hit('verifiesPerIp', clientIp(c))
      const body = await readJson(c)
      onlyFields(body, ['challengeId', ...answerFields])
      const challengeId = requiredString(body, 'challengeId', 200)
      c.header('Cache-Control', 'no-store')
      return ok(c, await verifyStepUp(deps, c.get('app'), session, challengeId, body))
    })
}
