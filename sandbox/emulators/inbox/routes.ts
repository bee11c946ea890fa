import { Hono } from 'hono'
import type { Deps } from '../../context.ts'
import { listInbox, type InboxMessage } from './queries.ts'

/** The dev inbox: where login codes "arrive" in the sandbox. JSON for tests, a page for people. */
export function inboxRoutes(deps: Deps) {
  return new Hono()
    .get('/api/inbox', async (c) => c.json(await listInbox(deps.store, { to: recipient(c.req.query('to')) })))
    .get('/inbox', async (c) => {
      const to = recipient(c.req.query('to'))
      c.header('Cache-Control', 'no-store')
      return c.html(page(await listInbox(deps.store, { to }), to))
    })
}

/** E-mail addresses are stored lower-cased; phone numbers as digits. */
function recipient(value: string | undefined) {
  const to = value?.trim()
  return to ? to.toLowerCase() : undefined
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char)

function page(messages: InboxMessage[], to: string | undefined) {
  const rows = messages
    .map(
      (message) => `<tr><td>${escape(new Date(message.createdAt).toLocaleTimeString('en-GB'))}</td><td>${escape(message.channel)}</td>
<td>${escape(message.to)}</td><td class="code">${escape(message.code ?? '')}</td><td>${escape(message.subject)}<br><small>${escape(message.text)}</small></td></tr>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3">
<title>Dev inbox${to ? ` – ${escape(to)}` : ''}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;background:#111;color:#eee}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #333;padding:.5rem;text-align:left;vertical-align:top}.code{font:bold 20px monospace;letter-spacing:.2em}
small{color:#aaa}a{color:#8ab4f8}</style></head>
<body><h1>Dev inbox${to ? ` for ${escape(to)} <a href="/dev/inbox">(all)</a>` : ''}</h1>
<p>Login codes the sandbox would have sent by e-mail or messaging app. This page refreshes every 3 seconds.</p>
${messages.length ? `<table><thead><tr><th>Time</th><th>Channel</th><th>To</th><th>Code</th><th>Message</th></tr></thead><tbody>\n${rows}\n</tbody></table>` : '<p><em>No messages yet.</em></p>'}
</body></html>`
}
