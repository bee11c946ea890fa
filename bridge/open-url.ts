/**
 * What the widget may ask the host page to open top-level (the `openUrl` bridge method). An
 * allowlist, not a blocklist: a blocklist always misses one (intent:, ms-…:, vendor schemes that
 * launch apps), and the host opens whatever passes from the top frame, outside the wallet frame.
 *
 * - `https:`: web pages (the on-ramp, a wallet's download page).
 * - `http:`: only this machine (the local sandbox's pages during development).
 * - the deep-link schemes of the mobile wallets the modal offers (bridge/mobile-wallets.ts), and
 *   `wc:`, the WalletConnect pairing URI itself (EIP-1328).
 */
export const walletLinkSchemes = ['metamask', 'trust', 'rainbow', 'cbwallet', 'wc'] as const

const loopback = /^(localhost|127\.[\d.]+|\[::1\])$/

/** Why `url` may not be opened, or `undefined` when it may. */
export function checkOpenUrl(url: unknown): string | undefined {
  if (typeof url !== 'string' || url.length > 4096) return 'url must be a string'
  // Judged by the scheme the URL parser finds, as the browser will when it opens it: leading
  // spaces and control characters dropped, tabs and newlines removed (' java\tscript:' is javascript:).
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'url must be absolute'
  }
  const scheme = parsed.protocol.slice(0, -1)
  if (scheme === 'https') return undefined
  if (scheme === 'http') return loopback.test(parsed.hostname) ? undefined : 'http: is for loopback only'
  return (walletLinkSchemes as readonly string[]).includes(scheme) ? undefined : `scheme ${scheme}: is not allowed`
}

/**
 * What the frame may ask the host to open: checkOpenUrl's rule, and never a WalletConnect pairing
 * (its symKey): whoever holds it can answer the proposal as a wallet of its own. The frame opens
 * wallet app links itself, from the user's tap. (Checked where the frame sends: the host bundle
 * stays small, and a host has nothing to gain by refusing it.)
 */
export function checkFrameOpenUrl(url: unknown): string | undefined {
  if (typeof url === 'string' && /symkey(=|%3d|%253d)/i.test(url)) return 'a WalletConnect pairing URI is never handed to the page'
  return checkOpenUrl(url)
}
