import { ErrorCode, type RpcError } from './error-classes.ts'

/**
 * Whether this page is offered `chainId`: the app configures it (`app`: the app's chain ids, or
 * what the frame sent at handshake, already narrowed), and the page, when it names chains of its
 * own (`page`), names it too. The one answer to "is this chain offered here", for the host and the
 * frame alike.
 */
export const isChainOffered = (chainId: number, app: readonly number[], page: readonly number[] = []): boolean =>
  app.includes(chainId) && (page.length === 0 || page.includes(chainId))

/** The app's chains this page is offered, in the app's order (a page naming none gets all of them). */
export const offeredChains = <C extends { chainId: number }>(app: readonly C[], page: readonly number[]): C[] => {
  const ids = app.map((c) => c.chainId)
  return app.filter((c) => isChainOffered(c.chainId, ids, page))
}

/** EIP-1193's 4902 for a chain this page is not offered (a switch, or one a browser wallet would get). */
export const chainNotOffered = (chainId: number): RpcError => ({ code: ErrorCode.unknownChain, message: `Chain ${chainId} is not configured for this app` })
