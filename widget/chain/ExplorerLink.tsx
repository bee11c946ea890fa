import type { ChainConfig } from '../../sdk/index.ts'
import { useT } from '../context.ts'
import { explorerLink } from './explorer.ts'

/**
 * 'View on Etherscan': an address or a sent transaction on the chain's explorer, in a new tab that
 * gets no handle on this frame (noopener) and no referrer. Nothing where the chain has no explorer.
 */
export function ExplorerLink({ chain, kind, value }: { chain: ChainConfig | undefined; kind: 'address' | 'tx'; value: string }) {
  const t = useT()
  const link = explorerLink(chain, kind, value)
  if (!link) return null
  return (
    <a className="wk-link" href={link.href} target="_blank" rel="noopener noreferrer" data-testid={`explorer-${kind}`}>
      {t.viewOn(link.name)}
    </a>
  )
}
