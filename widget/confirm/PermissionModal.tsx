import { useWidget, useStore, useT } from '../context.ts'
import { Footer, Modal } from '../ui/Modal.tsx'

/** Shown instead of signing or sending while the account has not granted permission: 'Setup Permission' opens the account's permission-accept page in a new tab. */
export function PermissionModal() {
  const { wallet, config } = useWidget()
  const t = useT()
  const page = useStore(wallet.ui, (s) => s.account.acceptPermissionPage)
  return (
    <Modal testId="need-permission" title={t.permissionTitle} onClose={wallet.close} footer={<Footer show={config.showPoweredBy !== false} />}>
      <div className="wk-stack">
        <p className="wk-text">{t.permissionText}</p>
        <button
          type="button"
          className="wk-button wk-button--primary"
          disabled={!page}
          onClick={() => {
            if (!page) return
            // Opened from the frame itself: the click's user activation is here, not in the host page.
            window.open(page, '_blank', 'noopener')
            // Assume it will be granted; a new 407 brings this modal back.
            wallet.assumePermissionGranted()
            wallet.close()
          }}
        >
          {t.setupPermission}
        </button>
      </div>
    </Modal>
  )
}
