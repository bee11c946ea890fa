import { useWidget, useStore, useT } from '../context.ts'
import { pairingWallets, type PairingWallet } from '../walletconnect/wallet-list.ts'
import { FromThisSite, useConnectWallet, WalletRow } from './wallet-row.tsx'
import { orderWallets } from './wallet-order.ts'
import { PasskeySignIn } from './PasskeySignIn.tsx'

/** 'Select Your Log In Method': every detected wallet. */
export function WalletPage() {
  const { wallet } = useWidget()
  const wallets = useStore(wallet.ui, (s) => s.wallets)
  const { connect, busy, error } = useConnectWallet()
  const t = useT()
  return (
    <div className="wk-stack">
      {wallets.length > 0 && (
        <FromThisSite>
          <ul className="wk-list wk-stack" aria-label={t.wallets}>
            {orderWallets(wallets).map((w) => (
              <li key={w.id}>
                <WalletRow w={w} busy={busy === w.id} onPick={() => void connect(w)} />
              </li>
            ))}
          </ul>
        </FromThisSite>
      )}
      {wallets.length === 0 && <p className="wk-hint">{t.noWallets}</p>}
      <MobileWallets />
      <PasskeySignIn />
      <p className="wk-error" role="alert">
        {error}
      </p>
    </div>
  )
}

/** The wallets paired over WalletConnect: the modal's own list, so nothing here is the host page's to name. */
function MobileWallets() {
  const { config, walletConnect } = useWidget()
  const t = useT()
  if (!walletConnect) return null
  return (
    <fieldset className="wk-stack wk-full wk-fieldset">
      <legend className="wk-label">{t.mobileWallets}</legend>
      <ul className="wk-list wk-stack" aria-label={t.mobileWallets}>
        {pairingWallets(config.walletConnect.testWallet).map((w) => (
          <li key={w.id}>
            <PairingRow w={w} />
          </li>
        ))}
      </ul>
    </fieldset>
  )
}

/** A wallet paired over WalletConnect: picking it opens 'Scan QR Code' for it. */
function PairingRow({ w }: { w: PairingWallet }) {
  const { wallet } = useWidget()
  const pick = () => {
    wallet.pickPairingWallet(w.id)
    wallet.navigate('qr-code')
  }
  return (
    <button type="button" className="wk-list-row wk-card" onClick={pick} aria-label={w.name}>
      <img className="wk-wallet-icon" src={w.icon} alt="" />
      <span className="wk-grow">{w.name}</span>
    </button>
  )
}

/** The connect home's mobile wallets: the first `count` of the modal's list (loaded after the home, with this page). */
export function MobileShortcuts({ count }: { count: number }) {
  const { config } = useWidget()
  return (
    <>
      {pairingWallets(config.walletConnect.testWallet)
        .slice(0, count)
        .map((w) => (
          <PairingRow key={w.id} w={w} />
        ))}
    </>
  )
}
