import { escapeHtml } from '../page-view.ts'
import { type AuthorizeRequest, type OidcProvider, providerNames } from './oidc.ts'

// The bodies of the Google and Apple emulators' pages; page-view.ts wraps them.

/** Ready-made test identities on the sign-in page; any other can be typed in. */
const testIdentities = [
  { name: 'Alice Example', email: 'alice@example.com' },
  { name: 'Bob Example', email: 'bob@example.com' },
  { name: 'Carol Example', email: 'carol@example.com' },
]

export function chooserView(provider: OidcProvider, request: AuthorizeRequest): string {
  const hidden = (['client_id', 'redirect_uri', 'state', 'nonce', 'response_mode'] as const)
    .map((key) => {
      const value = {
        client_id: request.clientId,
        redirect_uri: request.redirectUri,
        state: request.state,
        nonce: request.nonce,
        response_mode: request.responseMode,
      }[key]
      return `<input type="hidden" name="${key}" value="${escapeHtml(value)}">`
    })
    .join('')
  const action = `/oauth/${provider}/authorize`
  const picks = testIdentities
    .map(
      (identity) =>
        `<form method="post" action="${action}">${hidden}<input type="hidden" name="email" value="${identity.email}"><input type="hidden" name="name" value="${identity.name}">
<button type="submit" class="secondary">${escapeHtml(identity.name)} &lt;${identity.email}&gt;</button></form>`,
    )
    .join('\n')
  return `<h1>Sign in with ${providerNames[provider]}</h1><p class="note">Sandbox emulator: pick a test identity or type one. No real ${providerNames[provider]} account is used.</p>
${picks}
<form method="post" action="${action}">${hidden}<p><label>E-mail<input name="email" type="email" required autocomplete="off"></label>
<label>Name<input name="name" autocomplete="off"></label></p><button type="submit">Continue</button></form>`
}

/** Apple's form_post: the browser posts these fields to the redirect URI, by the one script below. */
export const formPostView = (redirectUri: string, fields: Record<string, string>) => {
  const inputs = Object.entries(fields)
    .map(([key, value]) => `<input type="hidden" name="${key}" value="${escapeHtml(value)}">`)
    .join('')
  return `<h1>Signing in…</h1><form method="post" action="${escapeHtml(redirectUri)}">${inputs}<button type="submit">Continue</button></form>`
}

export const formPostScript = 'document.forms[0].submit()'

export const errorView = (message: string) => `<h1>Sign-in error</h1><p>${escapeHtml(message)}</p>`
