import { defineChain, type Address, type Chain } from 'viem'
import type { RunningChain } from '../infra/anvil/local-chains.ts'

/** Where Multicall3 lives on public chains; viem, wagmi and ethers look for it there, and deploy.ts installs it there. */
export const multicall3Address: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'

/** A local chain as viem describes it: its id, name, currency, its anvil's RPC URL and Multicall3. */
export function viemChainOf(chain: RunningChain): Chain {
  return defineChain({
    id: chain.chainId,
    name: chain.name,
    nativeCurrency: chain.nativeCurrency,
    rpcUrls: { default: { http: [chain.rpcUrl] } },
    contracts: { multicall3: { address: multicall3Address } },
  })
}
