import { beginStart } from './early.ts'
import { readParams } from './params.ts'

/**
 * The wallet frame's entry, kept small so that it runs as soon as it arrives: it starts what the
 * frame waits on first (its IndexedDB databases; early.ts), then hands over to the core (frame.ts),
 * whose code the page fetched beside this file (a modulepreload link).
 */
const params = readParams(new URL(location.href), location.ancestorOrigins)
document.documentElement.dataset.theme = params.theme
const failed = (error: unknown) => console.error('wallet-kit: the wallet frame could not load:', error)
// The secure window (a popup the frame opened) is its own page; its code loads only there.
if (params.secureWindow) void import('./secure/window-main.tsx').then(({ bootSecureWindow }) => bootSecureWindow(params), failed)
else {
  const early = beginStart({ walletConnect: true })
  void import('./frame.ts').then(({ boot }) => boot(params, early), failed)
}
