import { Hono, type Context } from 'hono'
import { postingPage } from './posting-page.ts'

// /widget/oauth-callback.html: the redirect_uri of the Google and Apple emulators (GET ?code&state,
// or Apple's form_post) → opener.postMessage({ provider, code, state, idToken?, error? }, <own origin>).
// The Telegram login popup is in ../telegram/.

export function popupRoutes() {
  const oauthCallback = async (c: Context) => {
    const params = c.req.method === 'POST' ? new URLSearchParams(await c.req.text()) : new URL(c.req.url).searchParams
    const provider = params.get('provider') ?? (c.req.method === 'POST' ? 'apple' : 'google')
    const data: Record<string, string> = { provider }
    for (const [key, name] of [
      ['code', 'code'],
      ['state', 'state'],
      ['id_token', 'idToken'],
      ['error', 'error'],
    ] as const) {
      const value = params.get(key)
      if (value) data[name] = value.slice(0, 8192)
    }
    return postingPage(c, data.error ? 'Sign-in cancelled' : 'Signed in', data, new URL(c.req.url).origin)
  }
  return new Hono().get('/widget/oauth-callback.html', oauthCallback).post('/widget/oauth-callback.html', oauthCallback)
}
