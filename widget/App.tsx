import { ChainModal } from './chain/ChainModal.tsx'
import { ConfirmModal } from './confirm/ConfirmModal.tsx'
import { PermissionModal } from './confirm/PermissionModal.tsx'
import { ConnectModal } from './connect/ConnectModal.tsx'
import { useWidget } from './context.ts'
import { ProfileModal } from './profile/ProfileModal.tsx'
import { useStore } from './store.ts'

export function App() {
  const { wallet } = useWidget()
  const view = useStore(wallet.ui, (s) => s.view)
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
