// An app's back end that learns who signed in: the page asks the wallet frame for an identity
// token after sign-in and posts it here; this server checks it against the provider's published
// keys and answers who it is. Against the running sandbox (`npm start`), from the repository root:
//
//   npx tsx examples/identity-server/main.ts
//
//   curl -X POST http://127.0.0.1:8790/api/session -H 'content-type: application/json' -d '{"identityToken":"<token>"}'
//
// PORT (8790), APP_ID (demo); WALLET_KIT_URL names the provider, otherwise the sandbox's data
// folder says where it listens (SANDBOX_DATA_DIR, .data/sandbox), as for `npm start`.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { SdkError, verifyIdentityToken } from 'wallet-kit/sdk'

const dataDir = process.env.SANDBOX_DATA_DIR ?? fileURLToPath(new URL('../../.data/sandbox', import.meta.url))
const providerUrl = process.env.WALLET_KIT_URL ?? readFileSync(join(dataDir, 'sandbox-url'), 'utf8').trim()
const appId = process.env.APP_ID ?? 'demo'
const port = Number(process.env.PORT ?? 8790)

/** Tokens already exchanged, by id, until they expire: a token copied off the page signs in nobody else. */
const used = new Map<string, number>()

const app = new Hono()
app.post('/api/session', async (c) => {
  const body = (await c.req.json().catch(() => ({}))) as { identityToken?: unknown }
  if (typeof body.identityToken !== 'string') return c.json({ signedIn: false, error: 'identityToken is required' }, 400)
  try {
    const claims = await verifyIdentityToken(body.identityToken, { appId, providerUrl, environment: 'development' })
    const now = Date.now() / 1000
    for (const [id, expiresAt] of used) if (expiresAt < now) used.delete(id)
    if (used.has(claims.tokenId)) return c.json({ signedIn: false, error: 'This identity token was already used' }, 401)
    used.set(claims.tokenId, claims.expiresAt)
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
  console.log(`identity server for app ${appId} listening on http://127.0.0.1:${info.port} (provider ${providerUrl})`)
})
