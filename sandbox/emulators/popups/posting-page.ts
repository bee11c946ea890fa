import type { Context } from 'hono'
import { escapeHtml, page, pageHeaders } from '../page-view.ts'

// The page that ends a sign-in popup by handing its result to the window that opened it. The data
// rides in a JSON block; the one fixed script posts it, so the CSP allows exactly that script.

const postScript =
  "var m=JSON.parse(document.getElementById('message').textContent);if(window.opener){window.opener.postMessage(m.data,m.targetOrigin)}window.close()"

/** JSON that is safe inside a <script type="application/json"> block. */
const jsonBlock = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

export function postingPage(c: Context, title: string, data: unknown, targetOrigin: string) {
  const body = `<h1>${escapeHtml(title)}</h1><p class="note">You can close this window.</p>
<script type="application/json" id="message">${jsonBlock({ data, targetOrigin })}</script>`
  return c.html(page({ title, body, script: postScript }), 200, pageHeaders({ script: postScript }))
}
