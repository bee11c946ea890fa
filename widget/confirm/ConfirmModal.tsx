import { useRef } from 'react'
import { useWidget } from '../context.ts'
import { shortAddress } from '../format.ts'
import { useStore } from '../store.ts'
import { Footer } from '../ui/Footer.tsx'
import { Modal } from '../ui/Modal.tsx'
import { useUnobscured } from '../ui/use-unobscured.ts'
import type { Confirmation } from '../ui-state.ts'
import { useT } from '../i18n.ts'

function Details({ confirmation }: { confirmation: Confirmation }) {
  const { wallet } = useWidget()
  const { payload, kind } = confirmation
  const t = useT()
  const chain = wallet.chain(payload.chainId)
  const rows: [string, string][] = [
    [t.from, shortAddress(payload.from)],
    [t.network, chain?.name ?? String(payload.chainId)],
  ]
  if (kind === 'transaction') {
    rows.push([t.to, payload.to ? shortAddress(payload.to) : '—'])
    rows.push([t.amount, `${payload.value ?? '0'} ${chain?.nativeCurrency.symbol ?? ''}`.trim()])
    if (payload.nonce !== undefined) rows.push([t.nonce, String(payload.nonce)])
    if (payload.gasPrice !== undefined) rows.push([t.gasPrice, `${payload.gasPrice} wei`])
  }
  return (
    <>
      <dl className="wk-details">
        {rows.map(([k, v]) => (
          <div key={k} className="wk-detail">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
      {kind !== 'transaction' && (
        <pre className="wk-message" aria-label="Message" data-testid="confirm-message">
          {payload.message}
        </pre>
      )}
      {kind === 'transaction' && payload.data && payload.data !== '0x' && (
        <pre className="wk-message" aria-label="Data">
          {payload.data}
        </pre>
      )}
    </>
  )
}

/** SPEC.md section 2: 'Confirm Transaction' or 'Sign Message'; Reject or Close, Confirm or Try Again. */
export function ConfirmModal() {
  const { wallet, confirmations, config } = useWidget()
  const confirmation = useStore(wallet.ui, (s) => s.confirmation)
  const actions = useRef<HTMLDivElement>(null)
  const unobscured = useUnobscured(actions, confirmation?.id)
  const t = useT()
  if (!confirmation) return null
  const { status, error, kind } = confirmation
  const title = kind === 'transaction' ? t.confirmTransaction : t.signMessage
  return (
    <Modal testId="confirmation" title={title} closable={false} onClose={() => {}} footer={<Footer show={config.showPoweredBy !== false} />}>
      <div className="wk-stack">
        <Details confirmation={confirmation} />
        <p className="wk-error" role="alert">
          {error}
        </p>
        {status === 'success' && (
          <p className="wk-notice" role="status">
            {t.done}
          </p>
        )}
        <div className="wk-row wk-row--even" ref={actions}>
          <button type="button" className="wk-button" disabled={status === 'loading' || status === 'success'} onClick={confirmations.reject}>
            {status === 'error' ? t.close : t.reject}
          </button>
          <button
            type="button"
            className="wk-button wk-button--primary"
            disabled={!unobscured || status === 'loading' || status === 'success'}
            onClick={() => void confirmations.confirm()}
          >
            {status === 'loading' ? t.confirming : status === 'error' ? t.tryAgain : t.confirm}
          </button>
        </div>
      </div>
    </Modal>
  )
}
