/** The button's look; lives in the element's shadow root (and once in the page for the React ConnectButton). */
export const buttonCss = `
.wk-button{display:inline-flex;align-items:center;gap:8px;height:40px;padding:0 16px;border:0;border-radius:10px;font:600 14px/1 ui-sans-serif,system-ui,sans-serif;cursor:pointer;background:#7c5cff;color:#fff}
.wk-button[data-theme=light]{background:#fff;color:#111318;box-shadow:inset 0 0 0 1px #d6d9e0}
.wk-button[data-status=connected]{background:#1c1e26;color:#fff}
.wk-button[data-theme=light][data-status=connected]{background:#f1f2f6;color:#111318}
.wk-button:focus-visible{outline:2px solid #7c5cff;outline-offset:2px}
.wk-button:disabled{opacity:.6;cursor:default}
.wk-balance{opacity:.7;font-weight:500}
`

/** Button labels by locale. */
export const labels = {
  en: { connect: 'Connect', connecting: 'Connecting…' },
  id: { connect: 'Hubungkan', connecting: 'Menghubungkan…' },
} as const
