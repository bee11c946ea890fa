// An app's back end that learns who signed in: the page asks the wallet frame for an identity
// token after sign-in and posts it here; this server checks it against the provider's published
// keys and answers who it is. Against the running sandbox (`npm start`), from the repository root:
//
//   npx tsx examples/identity-server/main.ts
//
//   curl -X POST http://127.0.0.1:8790/api/session -H 'content-type: application/json' -d '{"identityToken":"<token>"}'
//
// PORT (8790), APP_ID (demo), ENVIRONMENT (development; production for a page whose kit says
// env production, as the demo page's does); WALLET_KIT_URL names the provider, otherwise the
// sandbox's data folder says where it listens (SANDBOX_DATA_DIR, .data/sandbox), as for `npm start`.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { SdkError, verifyIdentityToken } from 'wallet-kit/sdk'

const dataDir = process.env.SANDBOX_DATA_DIR ?? fileURLToPath(new URL('../../.data/sandbox', import.meta.url))
const providerUrl = process.env.WALLET_KIT_URL ?? readFileSync(join(dataDir, 'sandbox-url'), 'utf8').trim()
const appId = process.env.APP_ID ?? 'demo'
const port = Number(process.env.PORT ?? 8790)
/** The app's data set a token must come from (the sandbox keeps both). */
const environment = process.env.ENVIRONMENT === 'production' ? 'production' : 'development'

/** How far a token's expiry may lie behind this server's clock (verifyIdentityToken's tolerance). */
const clockToleranceSeconds = 5
/**
 * Tokens already exchanged, by id, until they can no longer verify: a token copied off the page signs
 * in nobody else. That is its expiry plus the clock tolerance; forgotten at its bare expiry, a token
 * would sign in again in the seconds the tolerance still grants it.
 */
const used = new Map<string, number>()

/** An identity token is a few kilobytes: a larger body is refused before it is read. */
const maxBodyBytes = 64 * 1024

const app = new Hono()
app.post('/api/session', bodyLimit({ maxSize: maxBodyBytes, onError: (c) => c.json({ signedIn: false, error: 'Request body too large' }, 413) }), async (c) => {
  const body = (await c.req.json().catch(() => ({}))) as { identityToken?: unknown }
  if (typeof body.identityToken !== 'string') return c.json({ signedIn: false, error: 'identityToken is required' }, 400)
  try {
    const claims = await verifyIdentityToken(body.identityToken, { appId, providerUrl, environment, clockToleranceSeconds })
    const now = Date.now() / 1000
    for (const [id, lastValid] of used) if (lastValid < now) used.delete(id)
    if (used.has(claims.tokenId)) return c.json({ signedIn: false, error: 'This identity token was already used' }, 401)
    used.set(claims.tokenId, claims.expiresAt + clockToleranceSeconds + 1)
    // Here a real app would start its own session for claims.userId (a cookie of its own).
    const { userId, walletAddress, smartAccounts, signInMethod, expiresAt } = claims
    return c.json({ signedIn: true, userId, walletAddress, smartAccounts, signInMethod, expiresAt })
  } catch (error) {
    if (!(error instanceof SdkError)) throw error
    const status = error.code === 'JWKS_UNAVAILABLE' ? 503 : error.code === 'INVALID_CONFIG' ? 500 : 401
    return c.json({ signedIn: false, error: error.message }, status)
  }
})

serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`identity server for app ${appId} (${environment}) listening on http://127.0.0.1:${info.port} (provider ${providerUrl})`)
})
