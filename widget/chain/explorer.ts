import { isAddress, isHash } from '../../bridge/rpc-params.ts'
import type { ChainExtras } from '../../sdk/chain-table.ts'
import type { ChainConfig } from '../../sdk/index.ts'

const shapes = { address: isAddress, tx: isHash } as const

/**
 * The page of an address or a sent transaction on the chain's explorer, from the app config's
 * `blockExplorers` (viem's shape; the chain table's for a public chain). Undefined when there is
 * none to give: a chain without an explorer (the sandbox's local chains), an explorer URL that is
 * not plain http(s) (`javascript:` and the like never reach an href), or a value that is not an
 * address or a transaction hash (nothing but hex is ever put into the path).
 */
export function explorerLink(chain: ChainConfig | undefined, kind: keyof typeof shapes, value: string): { href: string; name: string } | undefined {
  const explorer = (chain as (ChainConfig & ChainExtras) | undefined)?.blockExplorers?.default
  if (typeof explorer?.url !== 'string' || !shapes[kind](value)) return undefined
  let url: URL
  try {
    url = new URL(explorer.url)
  } catch {
    return undefined
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password) return undefined
  const name = typeof explorer.name === 'string' && explorer.name.trim() ? explorer.name.trim() : url.hostname
  return { href: `${url.origin}${url.pathname.replace(/\/+$/, '')}/${kind}/${value}`, name }
}
