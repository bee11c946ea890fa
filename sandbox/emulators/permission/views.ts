import { escapeHtml } from '../page-view.ts'

// The bodies of the permission-accept page; page-view.ts wraps them.

export const invalidLinkView = (hint: boolean) =>
  `<h1>This link is invalid or has expired</h1>${hint ? '<p>Try the signing request again to get a new one.</p>' : ''}`

export const askView = (appName: string, address: string, token: string) =>
  `<h1>Permission needed</h1><p><b>${escapeHtml(appName)}</b> asks to let your wallet sign messages and send transactions.</p>
<p>Wallet <code>${escapeHtml(address)}</code></p>
<form method="post" action="/permission/accept"><input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Grant permission</button></form>`

export const grantedView = (address: string) =>
  `<h1>Permission granted</h1><p>Wallet <code>${escapeHtml(address)}</code> can sign again. You can close this tab and retry the request.</p>`
