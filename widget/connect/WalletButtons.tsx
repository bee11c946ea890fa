import { Suspense, useEffect, useState } from 'react'
import { narrowScreenPx } from '../constants.ts'
import { useWidget, useStore, useT } from '../context.ts'
import { orderWallets } from './wallet-order.ts'
import { lazyRoute, RouteError } from '../lazy-route.ts'
import { FromThisSite, useConnectWallet, WalletRow } from './wallet-row.tsx'

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
