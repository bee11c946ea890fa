import { Hono, type Context } from 'hono'
import { findAppsByTelegramBot } from '../../services/app-config/queries.ts'
import type { Deps } from '../../context.ts'
import { isOriginAllowed } from '../../http/origins.ts'
import { escapeHtml, page, pageHeaders } from '../page-view.ts'
import { telegramHash, type TelegramAuth } from '../../services/auth/telegram.ts'

// The pages that end a sign-in popup by handing its result to the window that opened it:
//   /widget/oauth-callback.html  redirect_uri of the Google and Apple emulators (GET ?code&state, or Apple's form_post)
//                                → opener.postMessage({ provider, code, state, idToken?, error? }, <own origin>)
//   /telegram/login?bot_id&origin[&state]  the Telegram login widget emulator
//                                → opener.postMessage({ event: 'auth_result', provider: 'telegram', state?, result }, origin)
// The data rides in a JSON block; the one fixed script posts it, so the CSP allows exactly that script.

const postScript =
  "var m=JSON.parse(document.getElementById('message').textContent);if(window.opener){window.opener.postMessage(m.data,m.targetOrigin)}window.close()"

/** JSON that is safe inside a <script type="application/json"> block. */
const jsonBlock = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

function postingPage(c: Context, title: string, data: unknown, targetOrigin: string) {
  const body = `<h1>${escapeHtml(title)}</h1><p class="note">You can close this window.</p>
<script type="application/json" id="message">${jsonBlock({ data, targetOrigin })}</script>`
  return c.html(page({ title, body, script: postScript }), 200, pageHeaders({ script: postScript }))
}

const testTelegramUsers = [
  { id: '100000001', first_name: 'Alice', last_name: 'Example', username: 'alice_example' },
  { id: '100000002', first_name: 'Bob', last_name: 'Example', username: 'bob_example' },
]

/**
 * The opener's nonce, echoed back so it can tell its own popup's answer from one another page
 * sent it. Optional; when given it is short and URL-safe, so it needs no escaping anywhere.
 */
const statePattern = /^[A-Za-z0-9_-]{1,128}$/
const parseState = (value: string | null | undefined): { state?: string } | undefined =>
  !value ? {} : statePattern.test(value) ? { state: value } : undefined

export function popupRoutes(deps: Deps) {
  const oauthCallback = async (c: Context) => {
    const params = c.req.method === 'POST' ? new URLSearchParams(await c.req.text()) : new URL(c.req.url).searchParams
    const provider = params.get('provider') ?? (c.req.method === 'POST' ? 'apple' : 'google')
    const data: Record<string, string> = { provider }
    for (const [key, name] of [['code', 'code'], ['state', 'state'], ['id_token', 'idToken'], ['error', 'error']] as const) {
      const value = params.get(key)
      if (value) data[name] = value.slice(0, 8192)
    }
    return postingPage(c, data.error ? 'Sign-in cancelled' : 'Signed in', data, new URL(c.req.url).origin)
  }

  /** The bot must belong to an app using Telegram, and `origin` must be an origin that app allows. */
  const telegramApp = async (botId: string, origin: string) => {
    const apps = (await findAppsByTelegramBot(deps.store, botId)).filter((app) => app.settings.telegram.enabled && app.secrets.telegramBotToken)
    return apps.find((app) => isOriginAllowed(origin, [...deps.ownOrigins(), ...app.allowedOrigins]))
  }

  return new Hono()
    .get('/widget/oauth-callback.html', oauthCallback)
    .post('/widget/oauth-callback.html', oauthCallback)
    .get('/telegram/login', async (c) => {
      const botId = c.req.query('bot_id') ?? ''
      const origin = c.req.query('origin') ?? ''
      const state = parseState(c.req.query('state'))
      if (!state) return c.html(page({ title: 'Telegram', body: '<h1>Invalid state</h1><p>state must be at most 128 characters of A-Z, a-z, 0-9, _ and -.</p>' }), 400, pageHeaders())
      const app = await telegramApp(botId, origin)
      if (!app) return c.html(page({ title: 'Telegram', body: '<h1>Bot domain invalid</h1><p>Unknown bot_id, or this origin is not allowed for it.</p>' }), 400, pageHeaders())
      const hidden = `<input type="hidden" name="bot_id" value="${escapeHtml(botId)}"><input type="hidden" name="origin" value="${escapeHtml(origin)}">${
        state.state ? `<input type="hidden" name="state" value="${escapeHtml(state.state)}">` : ''
      }`
      const picks = testTelegramUsers
        .map(
          (user) => `<form method="post" action="/telegram/login">${hidden}${Object.entries(user)
            .map(([key, value]) => `<input type="hidden" name="${key}" value="${value}">`)
            .join('')}<button type="submit" class="secondary">${user.first_name} ${user.last_name} (@${user.username})</button></form>`,
        )
        .join('\n')
      return c.html(
        page({
          title: 'Log in with Telegram',
          body: `<h1>Log in to ${escapeHtml(app.name)}</h1><p class="note">Telegram login emulator (bot @${escapeHtml(app.settings.telegram.botUsername ?? botId)}). Pick a test user or type one.</p>
${picks}
<form method="post" action="/telegram/login">${hidden}<p><label>User id<input name="id" inputmode="numeric" pattern="[1-9][0-9]{0,15}" required></label>
<label>First name<input name="first_name" required></label><label>Last name<input name="last_name"></label><label>Username<input name="username"></label></p>
<button type="submit">Log in</button></form>`,
        }),
        200,
        pageHeaders(),
      )
    })
    .post('/telegram/login', async (c) => {
      const form = new URLSearchParams(await c.req.text())
      const origin = form.get('origin') ?? ''
      const app = await telegramApp(form.get('bot_id') ?? '', origin)
      const id = form.get('id') ?? ''
      const state = parseState(form.get('state'))
      if (!app || !state || !/^[1-9]\d{0,15}$/.test(id)) return c.html(page({ title: 'Telegram', body: '<h1>Login failed</h1>' }), 400, pageHeaders())
      const result: TelegramAuth = { id, auth_date: String(Math.floor(Date.now() / 1000)) }
      for (const key of ['first_name', 'last_name', 'username', 'photo_url'] as const) {
        const value = form.get(key)?.trim()
        if (value) result[key] = value.slice(0, 256)
      }
      result.hash = telegramHash(app.secrets.telegramBotToken!, result)
      return postingPage(c, 'Logged in with Telegram', { event: 'auth_result', provider: 'telegram', ...state, result }, origin)
    })
}
