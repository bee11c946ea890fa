import { type ComponentType, Suspense } from 'react'
import type { View } from '../bridge/index.ts'
import { ConnectModal } from './connect/ConnectModal.tsx'
import { useWidget, useStore, useT } from './context.ts'
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
  const Shown = view && modals[view]
  return (
    <RouteError resetKey={view ?? ''} fallback={<LoadFailed />}>
      <Suspense fallback={null}>{Shown && <Shown />}</Suspense>
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

/** The modal of each view; only the open one is rendered. */
const modals: Partial<Record<View, ComponentType>> = {
  connect: ConnectModal,
  transaction_confirmation: ConfirmModal,
  need_permission: PermissionModal,
  chain: ChainModal,
  profile: ProfileModal,
}
