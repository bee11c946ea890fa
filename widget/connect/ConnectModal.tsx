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

const titles: Partial<Record<ConnectPage, string>> = {
  home: 'Login or Sign Up',
  wallet: 'Select Your Log In Method',
  whatsapp: 'Whatsapp Login',
  otp: 'OTP Verification',
  'wallet-created': 'Wallet Created Successfully!',
}

export function ConnectModal() {
  const { wallet, config } = useWidget()
  const page = useStore(wallet.ui, (s) => s.page)
  const direction = useStore(wallet.ui, (s) => s.direction)
  const canGoBack = page !== 'home' && page !== 'wallet-created'
  return (
    <Modal
      testId={`connect-${page}`}
      title={titles[page] ?? ''}
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
