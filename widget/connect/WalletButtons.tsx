import { Suspense, useEffect, useState, type ReactNode } from 'react'
import type { WalletDescriptor } from '../../bridge/index.ts'
import { errorDisplayMs, narrowScreenPx } from '../constants.ts'
import { useWidget } from '../context.ts'
import { useStore } from '../use-store.ts'
import { useTimedMessage } from '../use-timed.ts'
import { orderWallets } from './wallet-order.ts'
import { lazyRoute, RouteError } from '../lazy-route.ts'
import { useT } from '../i18n.ts'

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
 * likes: the label says so, so the frame's trust does not lend itself to them (bridge/validate.ts
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
const narrow = () => window.innerWidth < narrowScreenPx

function useNarrow(): boolean {
  const [is, set] = useState(narrow)
  useEffect(() => {
    const update = () => set(narrow())
    update()
    addEventListener('resize', update)
    return () => removeEventListener('resize', update)
  }, [])
  return is
}

const MobileShortcuts = lazyRoute(
  // With the wallet page's code: no chunk of its own.
  () => import('./WalletPage.tsx'),
  (m) => m.MobileShortcuts,
)

/**
 * Home page: the first 2 wallets (1 on a narrow screen) of the whole list, and 'More Options'. With
 * WalletConnect, the modal's mobile wallets (they open the QR page) take the places the host page's
 * browser wallets leave, and the first place on a phone; the wallet-connection protocol's come after them.
 */
export function WalletShortcuts() {
  const { wallet, walletConnect } = useWidget()
  const wallets = useStore(wallet.ui, (s) => s.wallets)
  const { connect, busy, error } = useConnectWallet()
  const t = useT()
  const phone = useNarrow()
  const count = phone ? 1 : 2
  const hosts = orderWallets(wallets).filter((w) => !walletConnect || w.connector !== 'walletconnect')
  const mobile = walletConnect ? (phone ? count : count - Math.min(hosts.length, count)) : 0
  const shown = hosts.slice(0, count - mobile)
  return (
    <div className="wk-stack wk-full">
      {shown.length > 0 && (
        <FromThisSite>
          {shown.map((w) => (
            <WalletRow key={w.id} w={w} busy={busy === w.id} onPick={() => void connect(w)} />
          ))}
        </FromThisSite>
      )}
      {mobile > 0 && (
        // Loaded with the wallet page (preloaded once the frame is idle); if that fails, home shows without them.
        <RouteError resetKey="" fallback={null}>
          <Suspense fallback={null}>
            <MobileShortcuts count={mobile} />
          </Suspense>
        </RouteError>
      )}
      <button type="button" className="wk-button" onClick={() => wallet.navigate('wallet')}>
        {t.moreOptions}
      </button>
      <p className="wk-error" role="alert">
        {error}
      </p>
    </div>
  )
}
