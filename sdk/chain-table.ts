import type { Chain } from 'viem'
import {
  arbitrum,
  arbitrumSepolia,
  avalanche,
  avalancheFuji,
  base,
  baseSepolia,
  blast,
  blastSepolia,
  bsc,
  bscTestnet,
  celo,
  fantom,
  gnosis,
  holesky,
  hoodi,
  linea,
  lineaSepolia,
  mainnet,
  mantle,
  mantleSepoliaTestnet,
  moonbeam,
  opBNB,
  opBNBTestnet,
  optimism,
  optimismSepolia,
  polygon,
  polygonAmoy,
  polygonZkEvm,
  scroll,
  scrollSepolia,
  sepolia,
  zksync,
  zksyncSepoliaTestnet,
} from 'viem/chains'
import type { ChainConfig } from './app-config.ts'

/**
 * The public chains an app may offer next to the provider's own (about 33, mainnets and testnets), by slug. The
 * slug is also the chain's wallet network: the `network` the wallet service is asked to act on and
 * the name the chain icon service knows it by. Everything else (id, name, native currency, default
 * RPC URLs, explorer, Multicall3) is viem's definition, never a copy of it: a viem upgrade that
 * moves an RPC URL or an explorer moves it here too.
 * The smart-account screen's names for some of them are in chain-names.ts.
 */
const table = [
  // Mainnets
  { slug: 'ethereum', chain: mainnet },
  { slug: 'bnb', chain: bsc },
  { slug: 'polygon', chain: polygon },
  { slug: 'arbitrum', chain: arbitrum },
  { slug: 'optimism', chain: optimism },
  { slug: 'base', chain: base },
  { slug: 'avalanche', chain: avalanche },
  { slug: 'fantom', chain: fantom },
  { slug: 'gnosis', chain: gnosis },
  { slug: 'celo', chain: celo },
  { slug: 'linea', chain: linea },
  { slug: 'scroll', chain: scroll },
  { slug: 'zksync', chain: zksync },
  { slug: 'polygon-zkevm', chain: polygonZkEvm },
  { slug: 'mantle', chain: mantle },
  { slug: 'blast', chain: blast },
  { slug: 'moonbeam', chain: moonbeam },
  { slug: 'opbnb', chain: opBNB },
  // Testnets
  { slug: 'sepolia', chain: sepolia },
  { slug: 'holesky', chain: holesky },
  { slug: 'hoodi', chain: hoodi },
  { slug: 'bnb-testnet', chain: bscTestnet },
  { slug: 'polygon-amoy', chain: polygonAmoy },
  { slug: 'arbitrum-sepolia', chain: arbitrumSepolia },
  { slug: 'optimism-sepolia', chain: optimismSepolia },
  { slug: 'base-sepolia', chain: baseSepolia },
  { slug: 'avalanche-fuji', chain: avalancheFuji },
  { slug: 'linea-sepolia', chain: lineaSepolia },
  { slug: 'scroll-sepolia', chain: scrollSepolia },
  { slug: 'zksync-sepolia', chain: zksyncSepoliaTestnet },
  { slug: 'mantle-sepolia', chain: mantleSepoliaTestnet },
  { slug: 'blast-sepolia', chain: blastSepolia },
  { slug: 'opbnb-testnet', chain: opBNBTestnet },
] as const satisfies readonly { slug: string; chain: Chain }[]

export type ChainSlug = (typeof table)[number]['slug']
export type ChainEntry = { readonly slug: ChainSlug; readonly chain: Chain }

export const chainTable: readonly ChainEntry[] = table

/** The entry of `slug`, or undefined for anything else (another type, '__proto__', a local chain's network). */
export const chainOfSlug = (slug: unknown): ChainEntry | undefined => chainTable.find((entry) => entry.slug === slug)

/** What the app config says of a chain beyond `ChainConfig`, in viem's shape: its explorer and contracts. */
export type ChainExtras = {
  blockExplorers?: { default: { name: string; url: string } }
  contracts?: { multicall3?: { address: `0x${string}` } }
}

/** A table chain as the app config lists it: viem's definition, the slug as its wallet network. */
export function chainConfigOf({ slug, chain }: ChainEntry): ChainConfig & ChainExtras {
  const explorer = chain.blockExplorers?.default
  const multicall3 = chain.contracts?.multicall3
  return {
    chainId: chain.id,
    name: chain.name,
    network: slug,
    rpcUrls: [...chain.rpcUrls.default.http],
    nativeCurrency: { ...chain.nativeCurrency },
    testnet: chain.testnet === true,
    ...(multicall3 && { contracts: { multicall3: { address: multicall3.address } } }),
    ...(explorer && { blockExplorers: { default: { name: explorer.name, url: explorer.url } } }),
  }
}
