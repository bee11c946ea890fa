import { useWidget } from '../context.ts'
import { Modal } from '../ui/Modal.tsx'
import { ChainList } from './ChainList.tsx'
import { useT } from '../i18n.ts'

export function ChainModal() {
  const { wallet } = useWidget()
  const t = useT()
  return (
    <Modal testId="chain" title={t.switchChain} onClose={wallet.close}>
      <ChainList onSwitched={wallet.close} />
    </Modal>
  )
}
