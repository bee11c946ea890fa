import { Suspense } from 'react'
import { lazyRoute } from '../lazy-route.ts'
import { useWidget } from '../context.ts'
import { useStore } from '../store.ts'
import { Footer } from '../ui/Footer.tsx'
import { Modal } from '../ui/Modal.tsx'
import type { ConnectPage } from '../ui-state.ts'
import { Home } from './Home.tsx'
import { useT, type Messages } from '../i18n.ts'

// Home loads with the frame; the other pages when first shown.
const Otp = lazyRoute(() => import('./Otp.tsx'), (m) => m.Otp)
const WalletPage = lazyRoute(() => import('./WalletButtons.tsx'), (m) => m.WalletPage)
const WalletCreated = lazyRoute(() => import('./WalletCreated.tsx'), (m) => m.WalletCreated)
const Whatsapp = lazyRoute(() => import('./Whatsapp.tsx'), (m) => m.Whatsapp)

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
        <Suspense fallback={null}>
          {page === 'home' && <Home />}
          {page === 'otp' && <Otp />}
          {page === 'wallet' && <WalletPage />}
          {page === 'whatsapp' && <Whatsapp />}
          {page === 'wallet-created' && <WalletCreated />}
        </Suspense>
      </div>
    </Modal>
  )
}
