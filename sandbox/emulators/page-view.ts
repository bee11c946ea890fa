import { createHash } from 'node:crypto'

/** Small server-rendered pages of the sandbox (permission, sign-in emulators): one look, no scripts unless given. */

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char)

export type PageOptions = {
  title: string
  /** Trusted HTML: callers escape every value they interpolate. */
  body: string
  /** An inline script; pageHeaders(script) allows exactly this one by its hash. */
  script?: string
}

export function page({ title, body, script }: PageOptions): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:15px system-ui,sans-serif;margin:0;background:#111;color:#eee;display:grid;place-items:center;min-height:100vh}
main{background:#1c1c1f;border:1px solid #333;border-radius:12px;padding:2rem;max-width:26rem;width:calc(100% - 4rem)}
h1{font-size:1.3rem;margin-top:0}button,input{font:inherit;border-radius:8px;padding:.6rem .8rem;border:1px solid #444}
input{background:#111;color:#eee;width:calc(100% - 1.8rem);margin:.3rem 0 .8rem}button{background:#4263e6;color:#fff;border:0;cursor:pointer;width:100%;margin-top:.4rem}
button.secondary{background:#333}dl{display:grid;grid-template-columns:auto 1fr;gap:.5rem 1rem}dt{color:#aaa}dd{margin:0}code{word-break:break-all;color:#8ab4f8}.note{color:#aaa;font-size:.85rem}label{display:block}</style></head>
<body><main>${body}</main>${script ? `<script>${script}</script>` : ''}</body></html>`
}

/**
 * Headers of a page that may hold a credential: never framed, cached or leaked as a referrer.
 * `script` is allowed by its hash; `formAction` lists origins its forms may post or redirect to.
 */
export function pageHeaders(options: { script?: string; formAction?: readonly string[] } = {}): Record<string, string> {
  const formAction = ["'self'", ...(options.formAction ?? [])].join(' ')
  const script = options.script ? `; script-src 'sha256-${sha256Base64(options.script)}'` : ''
  return {
    'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action ${formAction}; frame-ancestors 'none'${script}`,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  }
}

function sha256Base64(text: string): string {
  return createHash('sha256').update(text).digest('base64')
}
