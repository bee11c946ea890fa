import type { ChainConfig, SmartAccount } from '../../../sdk/index.ts'
import { smartAccountChainNames } from '../../../sdk/chain-names.ts'

/**
 * A smart account's chain as the screen names it: its own name for it (sdk/chain-names.ts);
 * else the name the app's chain config gives it (the sandbox's local chains, 'Local Chain 1'); else
 * the account's own network.
 */
export const chainDisplayName = (account: Pick<SmartAccount, 'chainId' | 'network'>, chains: readonly Pick<ChainConfig, 'chainId' | 'name'>[]): string =>
  (Object.hasOwn(smartAccountChainNames, account.chainId) ? smartAccountChainNames[account.chainId] : undefined) ??
  chains.find((chain) => chain.chainId === account.chainId)?.name ??
  account.network
