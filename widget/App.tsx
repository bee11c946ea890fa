import { Suspense } from 'react'
import { ConnectModal } from './connect/ConnectModal.tsx'
import { useWidget, useStore } from './context.ts'
import { useT } from './i18n.ts'
import { lazyRoute, RouteError } from './lazy-route.ts'
import { Modal, titleId } from './ui/Modal.tsx'

// Only the connect modal's home loads with the frame; every other modal after it (lazy-route.ts).
const ConfirmModal = lazyRoute(
  () => import('./confirm/ConfirmModal.tsx'),
  (m) => m.ConfirmModal,
)
const PermissionModal = lazyRoute(
  () => import('./confirm/PermissionModal.tsx'),
  (m) => m.PermissionModal,
)
const ChainModal = lazyRoute(
  () => import('./chain/ChainModal.tsx'),
  (m) => m.ChainModal,
)
const ProfileModal = lazyRoute(
  () => import('./profile/ProfileModal.tsx'),
  (m) => m.ProfileWithQueries,
)

export function App() {
  const { wallet } = useWidget()
  const view = useStore(wallet.ui, (s) => s.view)
  return (
    <RouteError resetKey={view ?? ''} fallback={<LoadFailed />}>
      <Suspense fallback={null}>{modal(view)}</Suspense>
    </RouteError>
  )
}

/** A modal whose code could not load (offline before it was fetched): said, and closable. */
function LoadFailed() {
  const { wallet } = useWidget()
  const t = useT()
  return (
    <Modal testId="load-failed" title={t.somethingWrong} hideTitle onClose={wallet.close}>
      <p className="wk-error" role="alert" id={titleId}>
        {t.somethingWrong}
      </p>
    </Modal>
  )
}

function modal(view: ReturnType<ReturnType<typeof useWidget>['wallet']['ui']['get']>['view']) {
  switch (view) {
    case 'connect':
      return <ConnectModal />
    case 'transaction_confirmation':
      return <ConfirmModal />
    case 'need_permission':
      return <PermissionModal />
    case 'chain':
      return <ChainModal />
    case 'profile':
      return <ProfileModal />
    default:
      return null
  }
}
