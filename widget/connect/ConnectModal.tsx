import { Suspense, type ComponentType } from 'react'
import { useWidget, useStore, useT } from '../context.ts'
import type { Messages } from '../i18n.ts'
import { lazyRoute, RouteError } from '../lazy-route.ts'
import { isPageOf } from '../modal-control.ts'
import type { ConnectPage } from '../ui-state.ts'
import { Footer, Modal } from '../ui/Modal.tsx'
import { Home } from './Home.tsx'

type Route = { title: keyof Messages; Page: ComponentType; back: boolean }

/** The connect modal's routes: home loads with the frame, every other page lazily (lazy-route.ts). */
const routes: Record<ConnectPage, Route> = {
  home: { title: 'loginTitle', Page: Home, back: false },
  wallet: {
    title: 'walletsTitle',
    Page: lazyRoute(
      () => import('./WalletPage.tsx'),
      (m) => m.WalletPage,
    ),
    back: true,
  },
  'qr-code': {
    title: 'qrTitle',
    Page: lazyRoute(
      () => import('./QrCode.tsx'),
      (m) => m.QrCode,
    ),
    back: true,
  },
  whatsapp: {
    title: 'whatsappTitle',
    Page: lazyRoute(
      () => import('./Whatsapp.tsx'),
      (m) => m.Whatsapp,
    ),
    back: true,
  },
  otp: {
    title: 'otpTitle',
    Page: lazyRoute(
      () => import('./Otp.tsx'),
      (m) => m.Otp,
    ),
    back: true,
  },
  // A new wallet is made: there is no going back to the login.
  'wallet-created': {
    title: 'createdTitle',
    Page: lazyRoute(
      () => import('./WalletCreated.tsx'),
      (m) => m.WalletCreated,
    ),
    back: false,
  },
}

/** 'Connect to <origin>?' (a signed-in user, this page not connected): lazy, like every page but home. */
const SiteConnect = lazyRoute(
  () => import('./SiteConnect.tsx'),
  (m) => m.SiteConnect,
)

export function ConnectModal() {
  const { wallet, config } = useWidget()
  const shown = useStore(wallet.ui, (s) => s.page)
  const direction = useStore(wallet.ui, (s) => s.direction)
  const asking = useStore(wallet.ui, (s) => !!s.session && !s.connected)
  const t = useT()
  if (asking) return <SiteConnect />
  const page: ConnectPage = isPageOf('connect', shown) ? (shown as ConnectPage) : 'home'
  const { title, Page, back } = routes[page]
  return (
    <Modal
      testId={`connect-${page}`}
      title={t[title] as string}
      hideTitle={page === 'home'}
      wide={page === 'home'}
      onClose={wallet.close}
      onBack={back ? wallet.back : undefined}
      footer={<Footer show={config.showPoweredBy !== false} />}
    >
      <div key={page} className={`wk-page wk-page--${direction}`}>
        <RouteError
          resetKey={page}
          fallback={
            <p className="wk-error" role="alert">
              {t.somethingWrong}
            </p>
          }
        >
          <Suspense fallback={null}>
            <Page />
          </Suspense>
        </RouteError>
      </div>
    </Modal>
  )
}
