import { useState, type ReactNode } from 'react'
import type { WalletDescriptor } from '../../bridge/index.ts'
import { errorDisplayMs } from '../constants.ts'
import { useWidget, useT } from '../context.ts'
import { useTimedMessage } from '../use-timed.ts'

/** Connects the picked injected wallet in the host page (the top frame), where it lives. */
export function useConnectWallet() {
  const { wallet } = useWidget()
  const [busy, setBusy] = useState<string | null>(null)
  const [error, showError] = useTimedMessage(errorDisplayMs)
  const t = useT()
  async function connect(w: WalletDescriptor) {
    if (busy) return
    setBusy(w.id)
    try {
      const answer = await wallet.host.connectExternal(w.id)
      if ('error' in answer) return showError(answer.error.code === 4001 ? t.connectionRejected : answer.error.message)
      wallet.connectedExternally(w.id, answer.result)
      wallet.close()
    } catch {
      // The host page went away mid-connect.
      showError(t.somethingWrong)
    } finally {
      setBusy(null)
    }
  }
  return { connect, busy, error }
}

export function WalletRow({ w, busy, onPick }: { w: WalletDescriptor; busy: boolean; onPick: () => void }) {
  const t = useT()
  return (
    <button type="button" className="wk-list-row wk-card" onClick={onPick} aria-label={w.name} disabled={busy}>
      <img className="wk-wallet-icon" src={w.icon} alt="" />
      <span className="wk-grow">{w.name}</span>
      {busy ? <span className="wk-spinner" role="img" aria-label={t.connecting} /> : w.installed && <span className="wk-badge">{t.installed}</span>}
    </button>
  )
}

/**
 * Every wallet in the list was announced by the host page, which can name and draw it as it
 * likes: the label says so, so the frame's trust does not lend itself to them (bridge/serve.ts
 * refuses only the names of this modal's own sign-in methods).
 */
export function FromThisSite({ children }: { children: ReactNode }) {
  const t = useT()
  return (
    <fieldset className="wk-stack wk-full wk-fieldset">
      <legend className="wk-label">{t.fromThisSite}</legend>
      {children}
    </fieldset>
  )
}

/**
 * Whether the frame is narrow (a phone), kept current: the home first renders while the frame is
 * still hidden (no width), and the frame's window is resized when it is shown.
 */
