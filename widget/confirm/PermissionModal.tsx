import { useWidget } from '../context.ts'
import { useStore } from '../store.ts'
import { Modal } from '../ui/Modal.tsx'

/** SPEC.md section 6: 'Setup Permission' opens the account's permission-accept page in a new tab. */
export function PermissionModal() {
  const { wallet } = useWidget()
  const page = useStore(wallet.ui, (s) => s.account.acceptPermissionPage)
  return (
    <Modal testId="need-permission" title="Permission needed" onClose={wallet.close}>
      <div className="wk-stack">
        <p className="wk-text">
          This wallet has not been given permission to sign yet. Set it up once, then try again.
        </p>
        <button
          type="button"
          className="wk-button wk-button--primary"
          disabled={!page}
          onClick={() => {
            if (!page) return
            // Opened from the frame itself: the click's user activation is here, not in the host page.
            window.open(page, '_blank', 'noopener')
            // Assume it will be granted; a new 407 brings this modal back.
            wallet.ui.set((s) => ({ account: { ...s.account, isPermissionGranted: true } }))
            wallet.close()
          }}
        >
          Setup Permission
        </button>
      </div>
    </Modal>
  )
}
