import { useWidget } from '../context.ts'
import { useT } from '../i18n.ts'
import { useStore } from '../store.ts'
import { useEffect } from 'react'
import type { SecurePurpose } from './secure-handle.ts'

/**
 * The frame's one way forward when it cannot protect the user: 'Open secure window'. While the
 * window is open the frame says so; a blocked window is explained, with a retry (a new click, so
 * the browser lets it open this time if the user allowed pop-ups).
 */
export function SecureWindowButton({ purpose }: { purpose: SecurePurpose }) {
  const { secure } = useWidget()
  const t = useT()
  const state = useStore(secure!.state, (s) => s)
  useEffect(() => secure!.preload(), [secure])
  const blocked = state.status === 'blocked' && state.purpose === purpose
  const open = state.status === 'open' && state.purpose === purpose
  return (
    <div className="wk-stack wk-full" data-testid="secure-window">
      <p className="wk-hint">{purpose === 'confirm' ? t.secureConfirmHint : t.secureLoginHint}</p>
      {blocked && (
        <p className="wk-error" role="alert" data-testid="secure-window-blocked">
          {t.secureWindowBlocked}
        </p>
      )}
      {open && (
        <p className="wk-notice" role="status" data-testid="secure-window-open">
          {t.secureWindowOpen}
        </p>
      )}
      <button type="button" className="wk-button wk-button--primary" disabled={open} onClick={() => secure!.open(purpose)}>
        {blocked ? t.tryAgainWindow : t.openSecureWindow}
      </button>
    </div>
  )
}
