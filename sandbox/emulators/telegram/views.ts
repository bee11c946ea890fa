import { escapeHtml } from '../page-view.ts'

// The bodies of the Telegram login emulator's pages; page-view.ts wraps them.

export const testTelegramUsers = [
  { id: '100000001', first_name: 'Alice', last_name: 'Example', username: 'alice_example' },
  { id: '100000002', first_name: 'Bob', last_name: 'Example', username: 'bob_example' },
]

export const invalidStateView = '<h1>Invalid state</h1><p>state must be at most 128 characters of A-Z, a-z, 0-9, _ and -.</p>'
export const unknownBotView = '<h1>Bot domain invalid</h1><p>Unknown bot_id, or this origin is not allowed for it.</p>'
export const loginFailedView = '<h1>Login failed</h1>'

/** Pick a test user or type one; every form carries the bot, the opener's origin and its state. */
export function loginView(appName: string, botName: string, fields: { botId: string; origin: string; state?: string | undefined }): string {
  const hidden = `<input type="hidden" name="bot_id" value="${escapeHtml(fields.botId)}"><input type="hidden" name="origin" value="${escapeHtml(fields.origin)}">${
    fields.state ? `<input type="hidden" name="state" value="${escapeHtml(fields.state)}">` : ''
  }`
  const picks = testTelegramUsers
    .map(
      (user) =>
        `<form method="post" action="/telegram/login">${hidden}${Object.entries(user)
          .map(([key, value]) => `<input type="hidden" name="${key}" value="${value}">`)
          .join('')}<button type="submit" class="secondary">${user.first_name} ${user.last_name} (@${user.username})</button></form>`,
    )
    .join('\n')
  return `<h1>Log in to ${escapeHtml(appName)}</h1><p class="note">Telegram login emulator (bot @${escapeHtml(botName)}). Pick a test user or type one.</p>
${picks}
<form method="post" action="/telegram/login">${hidden}<p><label>User id<input name="id" inputmode="numeric" pattern="[1-9][0-9]{0,15}" required></label>
<label>First name<input name="first_name" required></label><label>Last name<input name="last_name"></label><label>Username<input name="username"></label></p>
<button type="submit">Log in</button></form>`
}
