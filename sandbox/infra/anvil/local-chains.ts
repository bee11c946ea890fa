/** The local chains the sandbox runs, one anvil each, so switching chain in the kit is real. */
export type LocalChain = {
  readonly chainId: number
  readonly name: string
  /** The wallet API's network slug, which every wallet operation body names its chain by ('local-1'). */
  readonly network: string
  readonly nativeCurrency: { readonly name: string; readonly symbol: string; readonly decimals: number }
}

export const localChains: readonly LocalChain[] = [
  { chainId: 31337, name: 'Local Chain 1', network: 'local-1', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } },
  { chainId: 31338, name: 'Local Chain 2', network: 'local-2', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } },
]

/** A local chain plus the anvil serving it. */
export type RunningChain = LocalChain & { readonly rpcUrl: string }

/**
 * anvil port of the chain at `index`: the first takes `firstPort` (ANVIL_PORT, default 8545), the
 * next ones the ports after it; 0 means a free port for each.
 */
export function anvilPortFor(index: number, firstPort: number): number {
  return firstPort === 0 ? 0 : firstPort + index
}
