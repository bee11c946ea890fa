import { escapeHtml } from '../page-view.ts'
import type { InboxMessage } from './queries.ts'

/** The dev inbox page: every message, newest first, reloading itself every 3 seconds. */
export function inboxView(messages: InboxMessage[], to: string | undefined) {
  const rows = messages
    .map(
      (message) => `<tr><td>${escapeHtml(new Date(message.createdAt).toLocaleTimeString('en-GB'))}</td><td>${escapeHtml(message.channel)}</td>
<td>${escapeHtml(message.to)}</td><td class="code">${escapeHtml(message.code ?? '')}</td><td>${escapeHtml(message.subject)}<br><small>${escapeHtml(message.text)}</small></td></tr>`,
    )
    .join('\n')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="3">
<title>Dev inbox${to ? ` – ${escapeHtml(to)}` : ''}</title>
<style>body{font:14px system-ui,sans-serif;margin:2rem;background:#111;color:#eee}table{border-collapse:collapse;width:100%}
td,th{border-bottom:1px solid #333;padding:.5rem;text-align:left;vertical-align:top}.code{font:bold 20px monospace;letter-spacing:.2em}
small{color:#aaa}a{color:#8ab4f8}</style></head>
<body><h1>Dev inbox${to ? ` for ${escapeHtml(to)} <a href="/dev/inbox">(all)</a>` : ''}</h1>
<p>Login codes the sandbox would have sent by e-mail or messaging app. This page refreshes every 3 seconds.</p>
${messages.length ? `<table><thead><tr><th>Time</th><th>Channel</th><th>To</th><th>Code</th><th>Message</th></tr></thead><tbody>\n${rows}\n</tbody></table>` : '<p><em>No messages yet.</em></p>'}
</body></html>`
}
