import { Hono } from 'hono'
import type { Deps } from '../../context.ts'
import { isOriginAllowed } from '../../http/origins.ts'
import { findAppsByTelegramBot } from '../../services/app-config/queries.ts'
import { telegramHash, type TelegramAuth } from '../../services/auth/telegram-hash.ts'
import { page, pageHeaders } from '../page-view.ts'
import { postingPage } from '../popups/posting-page.ts'
import { serveStandIn, standInSource } from '../oidc/stand-in-script.ts'
import { installTelegram } from './widget-script.ts'
import { guardFormPost } from '../form-guard.ts'
import { invalidStateView, loginFailedView, loginView, unknownBotView } from './views.ts'

// /telegram/login?bot_id&origin[&state]: the Telegram login widget emulator
//   → opener.postMessage({ event: 'auth_result', provider: 'telegram', state?, result }, origin)
// /telegram/telegram-widget.js: the stand-in of the widget's script (Telegram.Login.auth), which opens it.

const widgetScript = standInSource(installTelegram)

/**
 * The opener's nonce, echoed back so it can tell its own popup's answer from one another page
 * sent it. Optional; when given it is short and URL-safe, so it needs no escaping anywhere.
 */
const statePattern = /^[A-Za-z0-9_-]{1,128}$/
const parseState = (value: string | null | undefined): { state?: string } | undefined => (!value ? {} : statePattern.test(value) ? { state: value } : undefined)

export function telegramRoutes(deps: Deps) {
  /** The bot must belong to an app using Telegram, and `origin` must be an origin that app allows. */
  const telegramApp = async (botId: string, origin: string) => {
    const apps = (await findAppsByTelegramBot(deps.store, botId)).filter((app) => app.settings.telegram.enabled && app.secrets.telegramBotToken)
    return apps.find((app) => isOriginAllowed(origin, [...deps.ownOrigins(), ...app.allowedOrigins]))
  }

  return new Hono()
    .get('/telegram-widget.js', (c) => serveStandIn(c, widgetScript))
    .get('/login', async (c) => {
      const botId = c.req.query('bot_id') ?? ''
      const origin = c.req.query('origin') ?? ''
      const state = parseState(c.req.query('state'))
      if (!state) return c.html(page({ title: 'Telegram', body: invalidStateView }), 400, pageHeaders())
      const app = await telegramApp(botId, origin)
      if (!app) return c.html(page({ title: 'Telegram', body: unknownBotView }), 400, pageHeaders())
      const body = loginView(app.name, app.settings.telegram.botUsername ?? botId, { botId, origin, state: state.state })
      return c.html(page({ title: 'Log in with Telegram', body }), 200, pageHeaders())
    })
    .post('/login', async (c) => {
      const refused = guardFormPost(c, deps, 'Telegram')
      if (refused) return refused
      const form = new URLSearchParams(await c.req.text())
      const origin = form.get('origin') ?? ''
      const app = await telegramApp(form.get('bot_id') ?? '', origin)
      const id = form.get('id') ?? ''
      const state = parseState(form.get('state'))
      if (!app || !state || !/^[1-9]\d{0,15}$/.test(id)) return c.html(page({ title: 'Telegram', body: loginFailedView }), 400, pageHeaders())
      const result: TelegramAuth = { id, auth_date: String(Math.floor(Date.now() / 1000)) }
      for (const key of ['first_name', 'last_name', 'username', 'photo_url'] as const) {
        const value = form.get(key)?.trim()
        if (value) result[key] = value.slice(0, 256)
      }
      result.hash = telegramHash(app.secrets.telegramBotToken!, result)
      return postingPage(c, 'Logged in with Telegram', { event: 'auth_result', provider: 'telegram', ...state, result }, origin)
    })
}
