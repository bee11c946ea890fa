import { ExplorerLink } from '../chain/ExplorerLink.tsx'
import { useStore, useWidget, useT } from '../context.ts'
import { shortAddress } from '../format.ts'
import type { Messages } from '../i18n.ts'
import { useCopy } from '../use-copy.ts'

/** EIP-5792 status codes as words: pending, confirmed, failed off chain, reverted, partly confirmed. */
const statusKey = (status: number): keyof Pick<Messages, 'callsPending' | 'callsConfirmed' | 'callsFailed' | 'callsReverted' | 'callsPartial'> =>
  status < 200 ? 'callsPending' : status < 300 ? 'callsConfirmed' : status < 500 ? 'callsFailed' : status < 600 ? 'callsReverted' : 'callsPartial'

/** The profile's 'calls-status' page: the batch wallet_showCallsStatus named, as it stood when asked. */
export function CallsStatus() {
  const { wallet } = useWidget()
  const t = useT()
  const shown = useStore(wallet.ui, (s) => s.callsStatus)
  const [notice, copy] = useCopy()
  if (!shown) return <p className="wk-text">{t.somethingWrong}</p>
  return (
    <div className="wk-card wk-stack wk-stack--tight" data-testid="calls-status">
      <div className="wk-row">
        <span className="wk-grow">{shown.atomic ? t.callsAtomic : null}</span>
        <span className="wk-badge" data-testid="calls-status-code">
          {t[statusKey(shown.status)]}
        </span>
      </div>
      {shown.transactionHash && (
        <div className="wk-row">
          <span className="wk-address" title={shown.transactionHash}>
            {shortAddress(shown.transactionHash)}
          </span>
          <button type="button" className="wk-link" onClick={() => copy(shown.transactionHash!)}>
            {t.copy}
          </button>
          <ExplorerLink chain={wallet.chain(shown.chainId)} kind="tx" value={shown.transactionHash} />
        </div>
      )}
      <p className="wk-notice" role="status">
        {notice}
      </p>
    </div>
  )
}
