import type { LoginResult, TelegramAuthData } from '../../sdk/index.ts'
import type { WidgetContext } from '../context.ts'

export type SocialProvider = 'google' | 'apple' | 'telegram'

type PopupMessage = { provider?: unknown; code?: unknown; state?: unknown; idToken?: unknown; error?: unknown; event?: unknown; result?: unknown }

/** How long a closed sign-in popup's last message may still be on its way. */
const closedGraceMs = 1_000

const random = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('')

/**
 * Resolves with the first message the popup posts to this frame from `origin` that `accept`
 * takes; rejects when the user closes the popup first. Messages from any other window or
 * origin are ignored.
 */
function popupResult(popup: Window, origin: string, accept: (m: PopupMessage) => boolean): Promise<PopupMessage> {
  return new Promise((resolve, reject) => {
    const onMessage = (e: MessageEvent) => {
      if (e.source !== popup || e.origin !== origin || typeof e.data !== 'object' || e.data === null) return
      if (!accept(e.data as PopupMessage)) return
      done()
      resolve(e.data as PopupMessage)
    }
    // The popup posts its answer and closes at once; the frame can see it closed before the message
    // (they travel apart between processes), so a closed popup gets a moment for its last message.
    let grace: ReturnType<typeof setTimeout> | undefined
    const watch = setInterval(() => {
      if (!popup.closed || grace) return
      grace = setTimeout(() => {
        done()
        reject(new Error('Sign-in window closed'))
      }, closedGraceMs)
    }, 400)
    const done = () => {
      clearInterval(watch)
      clearTimeout(grace)
      window.removeEventListener('message', onMessage)
    }
    window.addEventListener('message', onMessage)
  })
}

/** A fresh, unguessable window name: another page cannot find the popup by name and post into it. */
function open(url: string): Window {
  const popup = window.open(url, `wallet-kit-${random()}`, 'popup,width=480,height=680')
  if (!popup) throw new Error('The sign-in window was blocked')
  return popup
}

/**
 * The social sign-ins (SPEC.md section 1). Each provider's sign-in page opens in a popup on its
 * accounts host (for the sandbox, the provider's own emulator); its answer comes back by
 * postMessage and is exchanged with the wallet service.
 */
export async function socialLogin({ client, config }: Pick<WidgetContext, 'client' | 'config'>, provider: SocialProvider): Promise<LoginResult> {
  const origin = location.origin
  const callback = `${origin}/widget/oauth-callback.html`
  const state = random()
  if (provider === 'telegram') {
    const bot = config.telegram.botId ?? ''
    const popup = open(`${origin}/telegram/login?${new URLSearchParams({ bot_id: bot, origin, state })}`)
    const m = await popupResult(popup, origin, (d) => d.event === 'auth_result' && d.provider === 'telegram' && d.state === state)
    if (typeof m.result !== 'object' || m.result === null) throw new Error('Telegram sign-in was cancelled')
    return client.auth.telegram(m.result as TelegramAuthData)
  }
  const clientId = (provider === 'google' ? config.google.clientId : config.apple.clientId) ?? ''
  const query = new URLSearchParams({
    client_id: clientId,
    // App config may give Apple's redirect URI relative to the provider origin.
    redirect_uri: provider === 'apple' && config.apple.redirectUri ? new URL(config.apple.redirectUri, origin).href : callback,
    response_type: provider === 'apple' ? 'code id_token' : 'code',
    scope: provider === 'apple' ? 'name email' : 'openid email profile',
    state,
    nonce: random(),
    ...(provider === 'apple' && { response_mode: 'form_post' }),
  })
  const popup = open(`${origin}/oauth/${provider}/authorize?${query}`)
  const m = await popupResult(popup, origin, (d) => d.provider === provider && d.state === state)
  if (typeof m.error === 'string') throw new Error(m.error)
  if (provider === 'google') {
    if (typeof m.code !== 'string') throw new Error('Google sign-in returned no code')
    return client.auth.googleCode({ code: m.code })
  }
  if (typeof m.idToken !== 'string') throw new Error('Apple sign-in returned no identity token')
  return client.auth.apple({ credential: m.idToken })
}
