import { recoveryFileName } from '../constants.ts'
import { useWidget } from '../context.ts'
import { useStore } from '../store.ts'
import { useCopy } from '../use-copy.ts'

export function WalletCreated() {
  const { wallet } = useWidget()
  const secret = useStore(wallet.ui, (s) => s.secret0)
  const address = useStore(wallet.ui, (s) => s.session?.address)
  const [notice, copy] = useCopy()

  function download() {
    if (!secret) return
    const url = URL.createObjectURL(new Blob([secret], { type: 'text/plain' }))
    const a = Object.assign(document.createElement('a'), { href: url, download: recoveryFileName })
    a.click()
    setTimeout(() => URL.revokeObjectURL(url), 1000)
  }

  function done() {
    const { session } = wallet.ui.get()
    if (session) wallet.announce(session)
    wallet.close()
  }

  return (
    <div className="wk-stack">
      <div className="wk-success" aria-hidden="true">
        ✓
      </div>
      <p className="wk-text">
        Your wallet <code className="wk-code">{address}</code> is ready. Save your recovery secret somewhere safe: it
        is shown only once and restores your wallet if you lose access.
      </p>
      <div className="wk-row wk-row--even">
        <button type="button" className="wk-button" onClick={() => secret && copy(secret)} disabled={!secret}>
          Copy
        </button>
        <button type="button" className="wk-button" onClick={download} disabled={!secret}>
          Download
        </button>
      </div>
      <p className="wk-notice" role="status">
        {notice}
      </p>
      <button type="button" className="wk-button wk-button--primary" onClick={done}>
        Done
      </button>
    </div>
  )
}
