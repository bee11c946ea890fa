import { escapeHtml } from '../page-view.ts'

// The bodies of the permission-accept page; page-view.ts wraps them. Every form posts back to the
// page with the link's token; the step-up's fields ride along as hidden inputs.

const action = '/permission/accept'
const hidden = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('')
const alert = (message: string | undefined) => (message ? `<p role="alert"><b>${escapeHtml(message)}</b></p>` : '')
/** A form that starts over: a new code (or passkey request) for the same link; `factor` asks for that one. */
const startForm = (token: string, label: string, o: { factor?: 'email'; primary?: boolean } = {}) =>
  `<form method="post" action="${action}">${hidden({ token, ...(o.factor ? { factor: o.factor } : {}) })}<button type="submit"${o.primary ? '' : ' class="secondary"'}>${label}</button></form>`

export const invalidLinkView = (hint: boolean) =>
  `<h1>This link is invalid or has expired</h1>${hint ? '<p>Try the signing request again to get a new one.</p>' : ''}`

export const askView = (appName: string, address: string, token: string) =>
  `<h1>Permission needed</h1><p><b>${escapeHtml(appName)}</b> asks to let your wallet sign messages and send transactions.</p>
<p>Wallet <code>${escapeHtml(address)}</code></p>
<form method="post" action="${action}">${hidden({ token })}
<button type="submit">Grant permission</button></form><p class="note">We will ask you to confirm it is you first.</p>`

/** The e-mail code step: where the code went, the code field, and a way to get a new code. */
export const codeView = (o: { token: string; challengeId: string; sentTo: string; error?: string }) =>
  `<h1>Confirm it is you</h1><p>We sent a code to <b>${escapeHtml(o.sentTo)}</b>. Enter it to grant the permission.</p>${alert(o.error)}
<form method="post" action="${action}">${hidden({ token: o.token, challengeId: o.challengeId })}
<label for="code">Confirmation code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required autofocus>
<button type="submit">Confirm</button></form>${startForm(o.token, 'Send a new code')}`

/**
 * The passkey step: the button runs the WebAuthn assertion (passkeyScript) over `options` and posts
 * the answer in `credential`. `email`: the user can get a code instead.
 */
export const passkeyView = (o: { token: string; challengeId: string; options: unknown; email: boolean }) =>
  `<h1>Confirm it is you</h1><p>Use your passkey to grant the permission.</p><p role="alert" id="passkey-status"></p>
<form method="post" action="${action}" id="passkey" data-options="${escapeHtml(JSON.stringify(o.options))}">${hidden({ token: o.token, challengeId: o.challengeId, credential: '' })}
<button type="submit">Use passkey</button></form>${o.email ? startForm(o.token, 'Send a code by e-mail instead', { factor: 'email' }) : ''}`

/**
 * Runs the passkey step's assertion when its form is submitted: the options' base64url fields to
 * bytes, the answer's bytes back to base64url (the shape the service reads), then the form is posted.
 */
export const passkeyScript = `const form = document.getElementById('passkey')
const bytes = (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))
const text = (b) => btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, '')
form.addEventListener('submit', async (event) => {
  event.preventDefault()
  const o = JSON.parse(form.dataset.options)
  try {
    const c = await navigator.credentials.get({ publicKey: { ...o, challenge: bytes(o.challenge), allowCredentials: (o.allowCredentials || []).map((a) => ({ ...a, id: bytes(a.id) })) } })
    const r = c.response
    const response = { clientDataJSON: text(r.clientDataJSON), authenticatorData: text(r.authenticatorData), signature: text(r.signature) }
    if (r.userHandle) response.userHandle = text(r.userHandle)
    form.elements.credential.value = JSON.stringify({ id: c.id, rawId: c.id, type: c.type, response })
    form.submit()
  } catch {
    document.getElementById('passkey-status').textContent = 'The passkey did not answer. Try again.'
  }
})`

/** A step that cannot go on (an expired code, too many tries, no factor and a stale sign-in): why, and a way to start again. */
export const startAgainView = (token: string, message: string, canRetry: boolean) =>
  `<h1>Confirm it is you</h1>${alert(message)}${canRetry ? startForm(token, 'Start again', { primary: true }) : ''}`

export const grantedView = (address: string) =>
  `<h1>Permission granted</h1><p>Wallet <code>${escapeHtml(address)}</code> can sign again. You can close this tab and retry the request.</p>`
