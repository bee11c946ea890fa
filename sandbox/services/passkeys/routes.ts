import { Hono } from 'hono'
import type { Deps, SandboxEnv } from '../../context.ts'
import { onlyFields, readJson, HttpError, ok } from '../../http/exchange.ts'
import { clientIp } from '../../http/rate-limit.ts'
import { passkeyRemovalHash } from '../../../sdk/passkeys.ts'
import { authorize } from '../auth/app-guard.ts'
import { loginResult } from '../auth/login-answer.ts'
import { stepUpSession } from '../step-up/step-up.ts'
import { publicView, registerPasskey, registrationOptions, signInOptions, verifySignIn } from './ceremonies.ts'
import { deletePasskey, passkeysOf } from './queries.ts'
import { requireSignInMethodStepUp } from './step-up-gate.ts'

/**
 * Sign-in with a passkey (/api/v2/auth/passkey/...), behind the wallet service's app guard like every
 * login: options (a challenge), then the browser's assertion → the same login answer as the other
 * sign-in methods, the session recorded as begun by `passkey`.
 */
export function passkeySignInRoutes(deps: Deps) {
  return new Hono<SandboxEnv>()
    .post('/passkey/options', async (c) => {
      deps.limiter.hit('loginsPerIp', clientIp(c))
      onlyFields(await readJson(c), [])
      c.header('Cache-Control', 'no-store')
      return ok(c, await signInOptions(deps, c.get('app')))
    })
    .post('/passkey/verify', async (c) => {
      deps.limiter.hit('verifiesPerIp', clientIp(c))
      const body = await readJson(c)
      onlyFields(body, ['credential'])
      const app = c.get('app')
      const userId = await verifySignIn(deps, app, body)
      return ok(c, await loginResult(deps, app, userId, { method: 'passkey' }))
    })
}

/**
 * A signed-in user's passkeys (/api/v2/wallet/passkeys, bearer wallet token): add, list, remove.
 * Adding (its options, before any challenge is stored) and removing take a step-up proof in the
 * body's `stepUpProof` (step-up-gate.ts): a wallet token alone cannot change who can sign in.
 */
export function passkeyRoutes(deps: Deps) {
  return new Hono<SandboxEnv>()
    .post('/passkeys/options', async (c) => {
      const session = stepUpSession(await authorize(c, deps.keys.jwtKey, 'wallet'))
      const body = await readJson(c)
      onlyFields(body, ['stepUpProof'])
      c.header('Cache-Control', 'no-store')
      const app = c.get('app')
      await requireSignInMethodStepUp(deps, app, session, { action: 'add-sign-in-method' }, body.stepUpProof)
      return ok(c, await registrationOptions(deps, app, session.userId))
    })
    .post('/passkeys', async (c) => {
      const { userId } = await authorize(c, deps.keys.jwtKey, 'wallet')
      const body = await readJson(c)
      onlyFields(body, ['credential', 'name'])
      return ok(c, { passkey: await registerPasskey(deps, c.get('app'), userId, body) })
    })
    .get('/passkeys', async (c) => {
      const { userId } = await authorize(c, deps.keys.jwtKey, 'wallet')
      c.header('Cache-Control', 'no-store')
      return ok(c, { passkeys: (await passkeysOf(deps.store, userId)).map(publicView) })
    })
    .delete('/passkeys/:id', async (c) => {
      const session = stepUpSession(await authorize(c, deps.keys.jwtKey, 'wallet'))
      const body = await readJson(c)
      onlyFields(body, ['stepUpProof'])
      const id = c.req.param('id')
      // The proof names this very passkey: one earned to remove another removes nothing here.
      await requireSignInMethodStepUp(deps, c.get('app'), session, { action: 'remove-sign-in-method', requestHash: passkeyRemovalHash(id) }, body.stepUpProof)
      // Another user's passkey is as absent as one that never was.
      if (!(await deletePasskey(deps.store, session.userId, id))) throw new HttpError(404, 'No such passkey')
      return ok(c, { removed: true })
    })
}
