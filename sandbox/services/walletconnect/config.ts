// What the sandbox's apps are told about WalletConnect (app config's `walletConnect`), and where the
// relay listens: the path on the sandbox's own HTTP server(s), so the relay shares its origin and port.

/** The relay's path on every server the sandbox listens on (127.0.0.1 and, where bound, ::1). */
export const relayPath = '/walletconnect'

/**
 * The project id the sandbox's apps carry. Clients must be given one (sign-client sends it in the
 * socket URL); this relay does not check it. A real deployment sets the public relay and its own
 * Reown project id in the app's settings instead.
 */
export const sandboxProjectId = 'wallet-kit-sandbox'

/** A WebSocket URL on one of the sandbox's origins: http://localhost:8787 and /walletconnect → ws://localhost:8787/walletconnect. */
export const webSocketUrl = (origin: string, path: string) => `${origin.replace(/^http/, 'ws')}${path}`

/** The relay's URL on one of the sandbox's origins. */
export const relayUrlOf = (origin: string) => webSocketUrl(origin, relayPath)

/** The sandbox's mobile wallet (a WalletKit page, sandbox/emulators/wallet/): `?uri=<pairing URI>` is its universal link. */
export const devWalletPath = '/dev/wallet'
