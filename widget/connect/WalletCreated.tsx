import { recoveryFileName } from '../constants.ts'
import { useWidget, useStore, useT } from '../context.ts'
import { useCopy } from '../use-copy.ts'

export function WalletCreated() {
  const { wallet } = useWidget()
  const secret = useStore(wallet.ui, (s) => s.secret0)
  const address = useStore(wallet.ui, (s) => s.session?.address)
  const [notice, copy] = useCopy()
  const t = useT()

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
        {t.yourWallet} <code className="wk-code">{address}</code> {t.createdText}
      </p>
      <div className="wk-row wk-row--even">
        <button type="button" className="wk-button" onClick={() => secret && copy(secret)} disabled={!secret}>
          {t.copy}
        </button>
        <button type="button" className="wk-button" onClick={download} disabled={!secret}>
          {t.download}
        </button>
      </div>
      <p className="wk-notice" role="status">
        {notice}
      </p>
      <button type="button" className="wk-button wk-button--primary" onClick={done}>
        {t.done}
      </button>
    </div>
  )
}
