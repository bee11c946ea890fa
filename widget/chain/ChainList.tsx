import { useState } from 'react'
import { useStore, useWidget, useT } from '../context.ts'
import { isUnreachable, switchChain } from './switch.ts'

/** Chain icons come from the provider's icon service by network name (it answers a fallback image for unknown ones). */
export function ChainIcon({ network }: { network: string }) {
  return (
    <img className="wk-chain-icon" src={`/icons/chains/${encodeURIComponent(network)}`} alt="" onError={(e) => (e.currentTarget.style.visibility = 'hidden')} />
  )
}

/**
 * The 'Switch Chain' list of the app's configured chains; clicking one shows a spinner on it until the switch
 * succeeds (then `onSwitched`); on failure (a chain that cannot be reached, chain/switch.ts) the
 * highlighted selection reverts to the current chain and the error line says why.
 */
export function ChainList({ onSwitched }: { onSwitched: () => void }) {
  const { wallet, rpc } = useWidget()
  const t = useT()
  const current = useStore(wallet.ui, (s) => s.chainId)
  const [pending, setPending] = useState<number | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function pick(chainId: number) {
    if (pending !== null) return
    setPending(chainId)
    setError(null)
    try {
      await switchChain({ wallet, rpc }, chainId)
      onSwitched()
    } catch (err) {
      const name = wallet.chain(chainId)?.name ?? String(chainId)
      setError(isUnreachable(err) ? t.chainUnreachable(name) : err instanceof Error ? err.message : t.somethingWrong)
    } finally {
      setPending(null)
    }
  }

  const selected = pending ?? current
  return (
    <>
      <div className="wk-list" role="listbox" aria-label={t.chains}>
        {wallet.chains.map((chain) => (
          <button
            key={chain.chainId}
            type="button"
            role="option"
            aria-selected={chain.chainId === selected}
            className="wk-list-row"
            onClick={() => void pick(chain.chainId)}
          >
            <ChainIcon network={chain.network} />
            <span className="wk-grow">{chain.name}</span>
            {pending === chain.chainId ? (
              <span className="wk-spinner" role="img" aria-label={t.switching} />
            ) : chain.chainId === current ? (
              <span className="wk-dot" role="img" aria-label={t.currentChain} />
            ) : null}
          </button>
        ))}
      </div>
      <p className="wk-error" role="alert">
        {error}
      </p>
    </>
  )
}
