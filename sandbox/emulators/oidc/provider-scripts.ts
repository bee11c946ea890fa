import type { Helpers } from './stand-in-script.ts'

// Stand-ins of Google Identity Services' authorisation-code client
// (https://developers.google.com/identity/oauth2/web/reference/js-reference) and of Sign in with
// Apple JS (https://developer.apple.com/documentation/signinwithapplejs), on the emulators of
// ./routes.ts. Only what the widget calls; the answers have the providers' shapes.

export type CodeResponse = { code?: string; state?: string; scope?: string; error?: string }
export type CodeClientConfig = {
  client_id: string
  scope: string
  state?: string
  ux_mode?: 'popup'
  callback: (response: CodeResponse) => void
  error_callback?: (error: { type: 'popup_failed_to_open' | 'popup_closed' | 'unknown'; message: string }) => void
}
export type GoogleGlobal = { accounts: { oauth2: { initCodeClient(config: CodeClientConfig): { requestCode(): void } } } }

/** google.accounts.oauth2.initCodeClient(config).requestCode(): a popup on the Google emulator, its code to `callback`. */
export function installGoogle(win: Window & { google?: Partial<GoogleGlobal> }, script: HTMLScriptElement, { awaitPopup, randomHex }: Helpers): void {
  const origin = new URL(script.src).origin
  const requestCode = (config: CodeClientConfig) => {
    const state = config.state ?? ''
    const query = new URLSearchParams({
      client_id: config.client_id,
      redirect_uri: `${origin}/widget/oauth-callback.html`,
      response_type: 'code',
      response_mode: 'query',
      scope: config.scope,
      state,
      nonce: randomHex(win),
    })
    const popup = win.open(`${origin}/oauth/google/authorize?${query}`, `g_${randomHex(win)}`, 'popup,width=480,height=680')
    if (!popup) return config.error_callback?.({ type: 'popup_failed_to_open', message: 'Failed to open popup window' })
    awaitPopup(
      win,
      popup,
      origin,
      (m) => m.provider === 'google' && m.state === state,
      (m) => {
        if (!m) config.error_callback?.({ type: 'popup_closed', message: 'Popup window closed' })
        else if (typeof m.error === 'string') config.callback({ error: m.error, state })
        else config.callback({ code: String(m.code), state, scope: config.scope })
      },
    )
  }
  win.google = { ...win.google, accounts: { ...win.google?.accounts, oauth2: { initCodeClient: (config) => ({ requestCode: () => requestCode(config) }) } } }
}

export type AppleInit = { clientId: string; scope?: string; redirectURI: string; state?: string; nonce?: string; usePopup?: boolean }
export type AppleSignInResponse = { authorization: { code: string; id_token: string; state?: string } }
export type AppleGlobal = { auth: { init(config: AppleInit): void; signIn(): Promise<AppleSignInResponse> } }

/**
 * AppleID.auth.init(config) then AppleID.auth.signIn() (popup mode): resolves with the authorization
 * (code, id_token, state) the emulator form-posts to the redirect URI; rejects with `{ error }`
 * ('popup_closed_by_user', 'popup_blocked_by_browser'), as Apple's does.
 */
export function installApple(win: Window & { AppleID?: AppleGlobal }, script: HTMLScriptElement, { awaitPopup, randomHex }: Helpers): void {
  const origin = new URL(script.src).origin
  let settings: AppleInit | undefined
  const signIn = () =>
    new Promise<AppleSignInResponse>((resolve, reject) => {
      const init = settings
      if (!init) return reject({ error: 'AppleID.auth.init was not called' })
      let redirect: URL
      try {
        redirect = new URL(init.redirectURI)
      } catch {
        return reject({ error: 'invalid_request' })
      }
      const state = init.state ?? ''
      const query = new URLSearchParams({
        client_id: init.clientId,
        redirect_uri: redirect.href,
        response_type: 'code id_token',
        response_mode: 'form_post',
        scope: init.scope ?? '',
        state,
        nonce: init.nonce ?? '',
      })
      const popup = win.open(`${origin}/oauth/apple/authorize?${query}`, `a_${randomHex(win)}`, 'popup,width=480,height=680')
      if (!popup) return reject({ error: 'popup_blocked_by_browser' })
      awaitPopup(
        win,
        popup,
        redirect.origin,
        (m) => m.provider === 'apple' && m.state === state,
        (m) => {
          if (!m) reject({ error: 'popup_closed_by_user' })
          else if (typeof m.error === 'string') reject({ error: m.error })
          else resolve({ authorization: { code: String(m.code), id_token: String(m.idToken), state } })
        },
      )
    })
  win.AppleID = {
    auth: {
      init: (config) => {
        settings = { ...config }
      },
      signIn,
    },
  }
}
