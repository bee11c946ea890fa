import { Hono } from 'hono'
import { jwksPath } from '../../../sdk/identity.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { onlyFields, readJson, ok } from '../../http/exchange.ts'
import { authorize } from '../auth/app-guard.ts'
import { publishedKeys } from './key-ring.ts'
import { issueIdentityToken, readNonce } from './tokens.ts'

/**
 * POST /api/v2/wallet/identity-token { nonce? } (bearer wallet token) → { identityToken, expiresAt }.
 * Behind the wallet service's app guard like every wallet call: the widget by its origin, a back
 * end with the client secret; a revoked session's token gets nothing.
 */
export function identityTokenRoutes(deps: Deps) {
  return new Hono<SandboxEnv>().post('/identity-token', async (c) => {
    const session = await authorize(c, deps.keys.jwtKey, 'wallet')
    // authorize() refuses a wallet token without a session family.
    deps.limiter.hit('identityTokensPerSession', session.familyId ?? session.userId)
    const body = await readJson(c)
    onlyFields(body, ['nonce'])
    const nonce = body.nonce === undefined ? undefined : readNonce(body.nonce)
    c.header('Cache-Control', 'no-store')
    return ok(c, await issueIdentityToken(deps, c.get('app'), session, nonce))
  })
}

/** How long a verifier may keep the JWKS: the next key is in it before it signs, so a cached copy stays good. */
const jwksMaxAgeSeconds = 300

/** GET /.well-known/jwks.json: the public keys identity tokens are signed with (a plain JWKS, not an envelope). */
export function jwksRoutes(deps: Deps) {
  return new Hono<SandboxEnv>().get(jwksPath, async (c) =>
    c.json(await publishedKeys(deps), 200, { 'Cache-Control': `public, max-age=${jwksMaxAgeSeconds}`, 'Access-Control-Allow-Origin': '*' }),
  )
}
