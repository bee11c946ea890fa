import { Hono, type Context } from 'hono'
import { findAppsByOauthClient } from '../../services/app-config/queries.ts'
import type { Deps } from '../../context.ts'
import { HttpError, parseEmail } from '../../http/exchange.ts'
import { type AuthorizeRequest, discoveryDocument, issueCode, oidcProviders, providerNames, redeemCode, subjectFor, type OidcProvider } from './oidc.ts'
import { isOriginAllowed } from '../../http/origins.ts'
import { page, pageHeaders } from '../page-view.ts'
import { chooserView, errorView, formPostScript, formPostView } from './views.ts'
import { installApple, installGoogle } from './provider-scripts.ts'
import { serveStandIn, standInSource } from './stand-in-script.ts'
import { guardFormPost } from '../form-guard.ts'

const googleScript = standInSource(installGoogle)
const appleScript = standInSource(installApple)

/**
 * The Google and Apple sign-in emulators, at /oauth/google and /oauth/apple: OpenID discovery,
 * JWKS, an authorize page to pick or type a test identity, the code-for-token exchange, and the
 * stand-ins of the providers' sign-in scripts.
 */
export function oauthRoutes(deps: Deps) {
  const routes = new Hono()
  for (const provider of oidcProviders) {
    const base = `/${provider}`
    routes
      .get(`${base}/.well-known/openid-configuration`, (c) => {
        return c.json(discoveryDocument(deps.oidc.issuer(provider)), 200, { 'Access-Control-Allow-Origin': '*' })
      })
      .get(`${base}/jwks`, (c) => c.json(deps.oidc.jwks(provider), 200, { 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'max-age=300' }))
      .get(`${base}/authorize`, async (c) => {
        const request = await checkAuthorize(deps, provider, new URL(c.req.url).searchParams).catch(asHttpError)
        if (request instanceof HttpError) return errorPage(c, request.message)
        return c.html(
          page({ title: `Sign in with ${providerNames[provider]}`, body: chooserView(provider, request) }),
          200,
          pageHeaders({ formAction: [new URL(request.redirectUri).origin] }),
        )
      })
      .post(`${base}/authorize`, async (c) => {
        const refused = guardFormPost(c, deps, providerNames[provider])
        if (refused) return refused
        const form = new URLSearchParams(await c.req.text())
        const request = await checkAuthorize(deps, provider, form).catch(asHttpError)
        if (request instanceof HttpError) return errorPage(c, request.message)
        const email = parseEmail(form.get('email'))
        if (!email) return errorPage(c, 'Enter a valid e-mail address')
        const name = (form.get('name') ?? '').trim().slice(0, 100) || email.split('@')[0]!
        const claims = { sub: subjectFor(provider, email), email, name }
        const code = await issueCode(deps.store, {
          provider,
          clientId: request.clientId,
          redirectUri: request.redirectUri,
          nonce: request.nonce || null,
          claims,
        })
        if (request.responseMode === 'query') {
          const target = new URL(request.redirectUri)
          target.searchParams.set('code', code)
          if (request.state) target.searchParams.set('state', request.state)
          return c.redirect(target.toString(), 302)
        }
        // Apple's form_post: the browser posts code, id_token, state (and the user's name) to the redirect URI.
        const fields: Record<string, string> = {
          code,
          id_token: await deps.oidc.idToken(provider, request.clientId, claims, request.nonce || null),
          state: request.state,
          user: JSON.stringify({ name: { firstName: name.split(' ')[0], lastName: name.split(' ').slice(1).join(' ') }, email }),
        }
        return c.html(
          page({ title: `Signing in with ${providerNames[provider]}`, body: formPostView(request.redirectUri, fields), script: formPostScript }),
          200,
          pageHeaders({ script: formPostScript, formAction: [new URL(request.redirectUri).origin] }),
        )
      })
      .post(`${base}/token`, async (c) => {
        const form = new URLSearchParams(await c.req.text())
        if (form.get('grant_type') !== 'authorization_code') return c.json({ error: 'unsupported_grant_type' }, 400)
        const clientId = form.get('client_id') ?? ''
        try {
          const grant = await redeemCode(deps.store, provider, form.get('code') ?? '', clientId, form.get('redirect_uri') ?? '')
          return c.json(
            {
              access_token: Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url'),
              token_type: 'Bearer',
              expires_in: 3600,
              scope: 'openid email profile',
              id_token: await deps.oidc.idToken(provider, clientId, grant.claims, grant.nonce),
            },
            200,
            { 'Cache-Control': 'no-store' },
          )
        } catch (error) {
          if (error instanceof HttpError) return c.json({ error: 'invalid_grant', error_description: error.message }, 400)
          throw error
        }
      })
  }
  // The stand-ins of the providers' own sign-in scripts (stand-in-script.ts); app config names them.
  routes.get('/google/gsi/client', (c) => serveStandIn(c, googleScript)).get('/apple/appleid.auth.js', (c) => serveStandIn(c, appleScript))
  return routes
}

/** The client id must belong to an app using this provider; the redirect URI must be the sandbox's or an origin every such app allows. */
async function checkAuthorize(deps: Deps, provider: OidcProvider, params: URLSearchParams): Promise<AuthorizeRequest> {
  const clientId = params.get('client_id') ?? ''
  const redirectUri = params.get('redirect_uri') ?? ''
  const apps = clientId ? await findAppsByOauthClient(deps.store, provider, clientId) : []
  const enabled = apps.filter((app) => app.settings[provider].enabled)
  if (!enabled.length) throw new HttpError(400, `Unknown ${providerNames[provider]} client_id`)
  let redirect: URL
  try {
    redirect = new URL(redirectUri)
  } catch {
    throw new HttpError(400, 'redirect_uri must be an absolute URL')
  }
  // The provider's own origin, or one every app naming this client allows: an app owner who names
  // another app's client id must not widen where that client's codes and tokens are sent.
  const registered = deps.ownOrigins().includes(redirect.origin) || enabled.every((app) => isOriginAllowed(redirect.origin, app.allowedOrigins))
  if (!/^https?:$/.test(redirect.protocol) || redirect.hash || !registered) throw new HttpError(400, 'redirect_uri is not registered for this client')
  const mode = params.get('response_mode') ?? (provider === 'apple' ? 'form_post' : 'query')
  if (mode !== 'query' && mode !== 'form_post') throw new HttpError(400, 'response_mode must be query or form_post')
  const responseType = params.get('response_type') ?? 'code'
  if (!responseType.split(' ').includes('code')) throw new HttpError(400, 'response_type must include code')
  return { clientId, redirectUri, state: (params.get('state') ?? '').slice(0, 512), nonce: (params.get('nonce') ?? '').slice(0, 512), responseMode: mode }
}

/** Expected refusals become an error page; anything else stays a 500. */
function asHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error
  throw error
}

function errorPage(c: Context, message: string) {
  return c.html(page({ title: 'Sign-in error', body: errorView(message) }), 400, pageHeaders())
}
