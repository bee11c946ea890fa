import type { walletLinkSchemes } from './open-url.ts'

/**
 * The mobile wallets the connect modal offers without any browser wallet installed, with their
 * documented WalletConnect app links: `<scheme>://wc?uri=<pairing URI>` opens the app (from the
 * top-level page: bridge/open-url.ts allows exactly these schemes), and the universal link does
 * the same from a browser, or offers the install page. Written once, for the frame and the host.
 */
export type MobileWallet = {
  readonly id: string
  readonly name: string
  /** One of the schemes the host may open (a type link to bridge/open-url.ts, whose list stays small for the host bundle). */
  readonly scheme: Exclude<(typeof walletLinkSchemes)[number], 'wc'>
  readonly universalLink: string
}

export const mobileWallets: readonly MobileWallet[] = [
  { id: 'metamask', name: 'MetaMask', scheme: 'metamask', universalLink: 'https://metamask.app.link' },
  { id: 'coinbase', name: 'Coinbase Wallet', scheme: 'cbwallet', universalLink: 'https://go.cb-w.com' },
  { id: 'trust', name: 'Trust Wallet', scheme: 'trust', universalLink: 'https://link.trustwallet.com' },
  { id: 'rainbow', name: 'Rainbow', scheme: 'rainbow', universalLink: 'https://rnbwapp.com' },
]

/** The app link that hands `uri` to `wallet`: its own scheme (on a phone), or its universal link. */
export const walletLink = (wallet: MobileWallet, uri: string, kind: 'app' | 'universal' = 'app') =>
  `${kind === 'app' ? `${wallet.scheme}://` : `${wallet.universalLink}/`}wc?uri=${encodeURIComponent(uri)}`
