import { useWidget } from '../context.ts'
import { Modal } from '../ui/Modal.tsx'
import { ChainList } from './ChainList.tsx'

export function ChainModal() {
  const { wallet } = useWidget()
  return (
    <Modal testId="chain" title="Switch Chain" onClose={wallet.close}>
      <ChainList onSwitched={wallet.close} />
    </Modal>
  )
}
