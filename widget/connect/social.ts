import type { LoginResult } from '../../sdk/index.ts'
import { signInScriptUrl } from '../../sdk/sign-in-scripts.ts'
import { postLoginDelayMs } from '../constants.ts'
import type { WidgetContext } from '../context.ts'
import type { Messages } from '../i18n.ts'
import { completeLogin } from './complete-login.ts'
import { loadProviderScript, PopupBlocked, SignInUnavailable } from './provider-script.ts'

// The social sign-ins (Google, Apple, Telegram: each shown only when app config enables it),
// each through its provider's own JavaScript API, loaded on demand from the URL app config names, when sdk/sign-in-scripts.ts allows it (provider-script.ts): Google Identity Services'
// authorisation-code client, Sign in with Apple JS in popup mode, the Telegram login widget's
// Telegram.Login.auth. The sandbox serves stand-ins of those scripts with the same globals, so this
// code runs unchanged against the providers and against the sandbox's emulators. Loaded lazily
// itself (SocialButtons.tsx): the frame's first route has no room for it.

export type SocialProvider = 'google' | 'apple' | 'telegram'

type GoogleCodeClient = {
  initCodeClient(config: {
    client_id: string
    scope: string
    ux_mode: 'popup'
    state: string
    callback: (response: { code?: string; state?: string; error?: string }) => void
    error_callback: (error: { type: string }) => void
  }): { requestCode(): void }
}
type AppleAuth = {
  init(config: { clientId: string; scope: string; redirectURI: string; state: string; nonce: string; usePopup: true }): void
  signIn(): Promise<{ authorization?: { code?: string; id_token?: string; state?: string } }>
}
type TelegramLogin = {
  auth(options: { bot_id: string; request_access: 'write' }, callback: (user: Record<string, string | number> | false) => void): void
}
type ProviderGlobals = { google?: { accounts?: { oauth2?: GoogleCodeClient } }; AppleID?: { auth?: AppleAuth }; Telegram?: { Login?: TelegramLogin } }

const random = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')

/** A claim of a JWT's payload, read without verifying (the wallet service verifies the token; this only binds it to this sign-in). */
function claim(jwt: string, name: string): unknown {
  try {
    const payload = jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')
    return (JSON.parse(atob(payload)) as Record<string, unknown>)[name]
  } catch {
    return undefined
  }
}

/** An answer that is not for the sign-in this frame started (another state or nonce): refused. */
const forged = (provider: string) => new Error(`${provider} answered for another sign-in`)

async function google({ client, config }: Pick<WidgetContext, 'client' | 'config'>, scriptUrl: string | null): Promise<LoginResult> {
  const oauth2 = await loadProviderScript(scriptUrl, () => (window as ProviderGlobals).google?.accounts?.oauth2)
  const state = random()
  const code = await new Promise<string>((resolve, reject) =>
    oauth2
      .initCodeClient({
        client_id: config.google.clientId ?? '',
        scope: 'openid email profile',
        ux_mode: 'popup',
        state,
        callback: (response) => {
          if (response.state !== state) reject(forged('Google'))
          else if (typeof response.code === 'string' && response.code) resolve(response.code)
          else reject(new Error(`Google sign-in failed: ${response.error ?? 'no code'}`))
        },
        error_callback: (error) => reject(error.type === 'popup_failed_to_open' ? new PopupBlocked('Google') : new Error(`Google sign-in: ${error.type}`)),
      })
      .requestCode(),
  )
  return client.auth.googleCode({ code })
}

async function apple({ client, config }: Pick<WidgetContext, 'client' | 'config'>, scriptUrl: string | null): Promise<LoginResult> {
  const auth = await loadProviderScript(scriptUrl, () => (window as ProviderGlobals).AppleID?.auth)
  const state = random()
  const nonce = random()
  // App config may give Apple's redirect URI relative to the provider origin.
  const redirectURI = new URL(config.apple.redirectUri ?? '/', location.origin).href
  auth.init({ clientId: config.apple.clientId ?? '', scope: 'name email', redirectURI, state, nonce, usePopup: true })
  const answer = await auth.signIn().catch((error: unknown) => {
    const reason = (error as { error?: unknown } | null)?.error
    throw reason === 'popup_blocked_by_browser' ? new PopupBlocked('Apple') : new Error(`Apple sign-in: ${String(reason)}`)
  })
  const idToken = answer.authorization?.id_token
  if (typeof idToken !== 'string') throw new Error('Apple sign-in returned no identity token')
  if (answer.authorization?.state !== state || claim(idToken, 'nonce') !== nonce) throw forged('Apple')
  return client.auth.apple({ credential: idToken })
}

async function telegram({ client, config }: Pick<WidgetContext, 'client' | 'config'>, scriptUrl: string | null): Promise<LoginResult> {
  const login = await loadProviderScript(scriptUrl, () => (window as ProviderGlobals).Telegram?.Login)
  const user = await new Promise<Record<string, string | number>>((resolve, reject) =>
    login.auth({ bot_id: config.telegram.botId ?? '', request_access: 'write' }, (data) =>
      data ? resolve(data) : reject(new Error('Telegram sign-in was cancelled')),
    ),
  )
  const { id, auth_date, hash, ...rest } = user
  if (id === undefined || auth_date === undefined || typeof hash !== 'string') throw new Error('Telegram sign-in returned no user')
  // Telegram authorize sends the app's botUsername with the login data.
  return client.auth.telegram({ ...rest, id, auth_date, hash, ...(config.telegram.botUsername && { botUsername: config.telegram.botUsername }) })
}

const providers = { google, apple, telegram }

/**
 * Signs in with `provider` through its script, from where app config names it when that is one
 * this frame may load (sdk/sign-in-scripts.ts), then completes the login (after the social
 * post-login delay, 200 ms).
 */
export async function signIn(ctx: Pick<WidgetContext, 'wallet' | 'client' | 'config'>, provider: SocialProvider): Promise<void> {
  const login = await providers[provider](ctx, signInScriptUrl(ctx.config, provider, location.origin))
  await completeLogin(ctx, login, postLoginDelayMs.social)
}

/** The error line of a failed social sign-in: what to do when the script or the window failed, else 'Something went wrong'. */
export function failureText(error: unknown, t: Messages, provider: string): string {
  if (error instanceof SignInUnavailable) return t.signInUnavailable(provider)
  if (error instanceof PopupBlocked) return t.popupBlocked
  return t.somethingWrong
}
