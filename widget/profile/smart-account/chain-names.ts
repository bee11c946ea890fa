import type { ChainConfig, SmartAccount } from '../../../sdk/index.ts'

/** SPEC.md section 3: the names the smart-account screen gives these chains. */
const specNames: Readonly<Record<number, string>> = {
  1: 'Ethereum',
  137: 'Polygon',
  56: 'BSC',
  8453: 'Base',
  17000: 'Holesky',
  11155111: 'Sepolia',
}

/**
 * A smart account's chain as the screen names it: SPEC.md's name; else the name the app's chain
 * config gives it (the sandbox's local chains, 'Local Chain 1'); else the account's own network.
 */
export const chainDisplayName = (account: Pick<SmartAccount, 'chainId' | 'network'>, chains: readonly Pick<ChainConfig, 'chainId' | 'name'>[]): string =>
  specNames[account.chainId] ?? chains.find((chain) => chain.chainId === account.chainId)?.name ?? account.network
