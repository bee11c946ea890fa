import type { Helpers } from '../oidc/stand-in-script.ts'

// A stand-in of the Telegram login widget's script (https://core.telegram.org/widgets/login):
// Telegram.Login.auth({ bot_id, request_access }, callback) opens the login popup (here the
// emulator of ./routes.ts) and calls back with the signed user data, or with false.

export type TelegramUser = Record<string, string | number>
export type TelegramGlobal = {
  Login: { auth(options: { bot_id: string | number; request_access?: string; lang?: string }, callback: (user: TelegramUser | false) => void): void }
}

export function installTelegram(win: Window & { Telegram?: Partial<TelegramGlobal> }, script: HTMLScriptElement, { awaitPopup, randomHex }: Helpers): void {
  const origin = new URL(script.src).origin
  const auth: TelegramGlobal['Login']['auth'] = (options, callback) => {
    // The emulator echoes this back, so the answer of this popup is told from any other.
    const state = randomHex(win)
    const query = new URLSearchParams({ bot_id: String(options.bot_id), origin: win.location.origin, state })
    if (options.request_access) query.set('request_access', options.request_access)
    const popup = win.open(`${origin}/telegram/login?${query}`, `telegram_oauth_${randomHex(win)}`, 'popup,width=550,height=470')
    if (!popup) return callback(false)
    awaitPopup(
      win,
      popup,
      origin,
      (m) => m.event === 'auth_result' && m.provider === 'telegram' && m.state === state,
      (m) => callback(m && typeof m.result === 'object' && m.result !== null ? (m.result as TelegramUser) : false),
    )
  }
  win.Telegram = { ...win.Telegram, Login: { auth } }
}
