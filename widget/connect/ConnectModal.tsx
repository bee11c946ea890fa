import { useWidget } from '../context.ts'
import { useStore } from '../store.ts'
import { Footer } from '../ui/Footer.tsx'
import { Modal } from '../ui/Modal.tsx'
import type { ConnectPage } from '../ui-state.ts'
import { Home } from './Home.tsx'
import { Otp } from './Otp.tsx'
import { WalletPage } from './WalletButtons.tsx'
import { WalletCreated } from './WalletCreated.tsx'
import { Whatsapp } from './Whatsapp.tsx'
import { useT, type Messages } from '../i18n.ts'

const titleKeys: Partial<Record<ConnectPage, keyof Messages>> = {
  home: 'loginTitle',
  wallet: 'walletsTitle',
  whatsapp: 'whatsappTitle',
  otp: 'otpTitle',
  'wallet-created': 'createdTitle',
}

export function ConnectModal() {
  const { wallet, config } = useWidget()
  const page = useStore(wallet.ui, (s) => s.page)
  const direction = useStore(wallet.ui, (s) => s.direction)
  const t = useT()
  const titleKey = titleKeys[page]
  const canGoBack = page !== 'home' && page !== 'wallet-created'
  return (
    <Modal
      testId={`connect-${page}`}
      title={titleKey ? (t[titleKey] as string) : ''}
      hideTitle={page === 'home'}
      wide={page === 'home'}
      onClose={wallet.close}
      onBack={canGoBack ? wallet.back : undefined}
      footer={<Footer show={config.showPoweredBy !== false} />}
    >
      <div key={page} className={`wk-page wk-page--${direction}`}>
        {page === 'home' && <Home />}
        {page === 'otp' && <Otp />}
        {page === 'wallet' && <WalletPage />}
        {page === 'whatsapp' && <Whatsapp />}
        {page === 'wallet-created' && <WalletCreated />}
      </div>
    </Modal>
  )
}
