import { useCallback, useEffect, useState } from 'react'
import { walletLink } from '../../bridge/mobile-wallets.ts'
import { isUserRejection } from '../confirmation.ts'
import { narrowScreenPx, pairingExpiryMs, walletConnectErrorMs } from '../constants.ts'
import { useWidget, useStore, useT } from '../context.ts'
import type { Locale } from '../i18n.ts'
import { Qr } from '../ui/Qr.tsx'
import { useCopy } from '../use-copy.ts'
import { useTimedMessage } from '../use-timed.ts'
import { pairingWallets } from '../walletconnect/wallet-list.ts'

/**
 * One pairing: a new URI, then the wallet's answer. `renew` asks for the next one (expired after 5
 * minutes, refused, failed); the page keys this hook's component by round, so each round starts afresh.
 */
function usePairing(renew: () => void, showError: (message: string) => void) {
  const { wallet, walletConnect } = useWidget()
  const t = useT()
  const [uri, setUri] = useState<string | null>(null)
  useEffect(() => {
    if (!walletConnect) return
    let live = true
    // Both the relay and the wallet forget a proposal after 5 minutes: a new one replaces it.
    const expiry = setTimeout(renew, pairingExpiryMs)
    let pairing: { cancel(): void } | undefined
    walletConnect.pair().then(
      ({ uri, approval, cancel }) => {
        pairing = { cancel }
        if (!live) return cancel()
        setUri(uri)
        approval.then(
          () => live && wallet.close(),
          (err: unknown) => {
            if (!live) return
            // A refusal is said and retried with a new QR; any other failure is said for 5 s.
            if (isUserRejection(err)) showError(t.connectionRejected)
            else showError((err as Error)?.message === 'No chains found on connector.' ? t.noChainsOnConnector : t.failedToConnect)
            renew()
          },
        )
      },
      () => live && showError(t.failedToConnect),
    )
    return () => {
      live = false
      pairing?.cancel()
      clearTimeout(expiry)
    }
  }, [walletConnect, wallet, renew, showError, t])
  return uri
}

/**
 * Why the page opened by itself: a restored session lacked some of the app's chains. Kept with the
 * page (English and Indonesian), not in i18n.ts, whose English rides in the frame's first route.
 */
const reconnectText: Record<Locale, (wallet: string) => string> = {
  en: (wallet) => `${wallet} is not connected on all of this app's chains. Scan again to reconnect.`,
  id: (wallet) => `${wallet} tidak terhubung di semua jaringan aplikasi ini. Pindai lagi untuk menghubungkan ulang.`,
}

/** The 'Scan QR Code' page: the pairing URI as a QR, copy, 'Open in Browser' when the wallet has a browser link, the error line. */
export function QrCode() {
  const [round, setRound] = useState(0)
  const renew = useCallback(() => setRound((n) => n + 1), [])
  const [error, showError] = useTimedMessage(walletConnectErrorMs)
  return <Pairing key={round} renew={renew} error={error} showError={showError} />
}

function Pairing({ renew, error, showError }: { renew: () => void; error: string | null; showError: (message: string) => void }) {
  const { wallet, config, locale } = useWidget()
  const picked = useStore(wallet.ui, (s) => s.pairingWallet)
  const reconnect = useStore(wallet.ui, (s) => s.reconnect)
  const target = pairingWallets(config.walletConnect.testWallet).find((w) => w.id === picked)
  const uri = usePairing(renew, showError)
  const [notice, copy] = useCopy()
  const t = useT()
  const phone = window.innerWidth < narrowScreenPx
  return (
    <div className="wk-stack wk-center">
      {reconnect && (
        <p className="wk-notice" role="status" data-testid="pairing-reconnect">
          {reconnectText[locale](reconnect)}
        </p>
      )}
      <p className="wk-text">{t.qrHint(target?.name ?? 'WalletConnect')}</p>
      {uri ? (
        <Qr data={uri} label={t.qrTitle} testId="pairing-qr" />
      ) : (
        <div className="wk-qr wk-qr--waiting" role="status" aria-label={t.qrPreparing}>
          <span className="wk-spinner" aria-hidden="true" />
        </div>
      )}
      {target?.app && phone && (
        // Opened by the frame on the user's tap, never through the host page: the link carries the pairing's key.
        <a className="wk-button wk-button--primary wk-full" href={uri ? walletLink(target.app, uri) : undefined} target="_top" aria-disabled={!uri}>
          {t.openApp(target.name)}
        </a>
      )}
      {target?.browserLink && (
        <a
          className="wk-button wk-full"
          href={uri ? `${target.browserLink}?uri=${encodeURIComponent(uri)}` : undefined}
          target="_blank"
          rel="noopener"
          aria-disabled={!uri}
          data-testid="open-in-browser"
        >
          {t.openInBrowser}
        </a>
      )}
      <button type="button" className="wk-link" disabled={!uri} onClick={() => uri && copy(uri)}>
        {t.copyLink}
      </button>
      <p className="wk-notice" role="status">
        {notice}
      </p>
      <p className="wk-error" role="alert" data-testid="pairing-error">
        {error}
      </p>
    </div>
  )
}
