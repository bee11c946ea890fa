import { useRef } from 'react'
import { useWidget, useStore } from '../context.ts'
import type { Locale } from '../i18n.ts'
import { Footer, Modal } from '../ui/Modal.tsx'
import { useConfirmGate } from '../ui/use-confirm-gate.ts'
import { hostAddress } from '../accounts/active.ts'
import type { Wallet } from '../wallet.ts'

/**
 * This page's strings, English and Indonesian: kept with the page (loaded when asked), not in
 * i18n.ts, whose English strings ride in the frame's first route (its 100 KB budget).
 */
export const siteConnectText: Record<Locale, { title(origin: string): string; text: string; account: string; cancel: string; connect: string }> = {
  en: {
    title: (origin) => `Connect to ${origin}?`,
    text: 'This site will see your wallet address and can ask you to sign. Connect only to sites you trust.',
    account: 'Your wallet',
    cancel: 'Cancel',
    connect: 'Connect',
  },
  id: {
    title: (origin) => `Hubungkan ke ${origin}?`,
    text: 'Situs ini akan melihat alamat dompet Anda dan dapat meminta Anda menandatangani. Hubungkan hanya ke situs yang Anda percayai.',
    account: 'Dompet Anda',
    cancel: 'Batal',
    connect: 'Hubungkan',
  },
}

/**
 * The user connected this page: the host gets the account, a waiting eth_requestAccounts its
 * answer, and the modal closes. (Here, not in a module of its own: each lazy chunk is one more name
 * in the frame's first route.)
 */
export async function connectSite(wallet: Wallet): Promise<void> {
  const { session } = wallet.ui.get()
  if (!session) return
  const stored = wallet.setSite(true)
  wallet.announce(session)
  wallet.close()
  await stored
}

/**
 * 'Connect to <origin>?': asked once per site, in place of the login, when the user is signed in
 * (on another page of this app) and this page asks for the account. The origin shown is the one
 * Penpal accepts messages from (wallet.hostOrigin), never a name the page gave itself. Connect hands
 * this page the account (connection.ts connectSite); Cancel, or closing, answers 4001.
 */
export function SiteConnect() {
  const { wallet, config, locale, presentation } = useWidget()
  const t = siteConnectText[locale]
  const address = useStore(wallet.ui, (s) => (s.session ? hostAddress(s.session) : ''))
  // Connect hands the page the account: armed as the secure window's offer is (ui/use-confirm-gate.ts:
  // shown, unmoved and the pointer in for 500 ms, decided at the click), never a click the page timed.
  const row = useRef<HTMLDivElement>(null)
  const gate = useConfirmGate(row, 'site', presentation)
  return (
    <Modal testId="connect-site" title={t.title(wallet.hostOrigin)} onClose={wallet.close} footer={<Footer show={config.showPoweredBy !== false} />}>
      <div className="wk-stack">
        <p className="wk-text">{t.text}</p>
        <p className="wk-stack wk-stack--tight">
          <span className="wk-text">{t.account}</span>
          <span className="wk-address" data-testid="connect-site-address" style={{ wordBreak: 'break-all' }}>
            {address}
          </span>
        </p>
        <div className="wk-row wk-row--even" ref={row}>
          <button type="button" className="wk-button" onClick={wallet.close}>
            {t.cancel}
          </button>
          <button type="button" className="wk-button wk-button--primary" disabled={!gate.settled} onClick={() => gate.settledNow() && void connectSite(wallet)}>
            {t.connect}
          </button>
        </div>
      </div>
    </Modal>
  )
}
