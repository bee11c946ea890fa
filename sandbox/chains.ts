/** The local chains the sandbox runs, one anvil each. Chain 31338 ('local-2') joins in a later phase. */
export type LocalChain = {
  readonly chainId: number
  readonly name: string
  /** The wallet API's network slug (PROTOCOL.md). */
  readonly network: string
  readonly nativeCurrency: { readonly name: string; readonly symbol: string; readonly decimals: number }
}

export const localChains: readonly LocalChain[] = [
  { chainId: 31337, name: 'Local Chain 1', network: 'local-1', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } },
]

/** A local chain plus the anvil serving it. */
export type RunningChain = LocalChain & { readonly rpcUrl: string }
