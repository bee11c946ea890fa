import { ConnectModal } from './connect/ConnectModal.tsx'
import { useWidget } from './context.ts'
import { useStore } from './store.ts'

export function App() {
  const { wallet } = useWidget()
  const view = useStore(wallet.ui, (s) => s.view)
  if (view === 'connect') return <ConnectModal />
  return null
}
