import { useWidget, useT } from '../context.ts'
import { Footer, Modal } from '../ui/Modal.tsx'
import { ChainList } from './ChainList.tsx'

export function ChainModal() {
  const { wallet, config } = useWidget()
  const t = useT()
  return (
    <Modal testId="chain" title={t.switchChain} onClose={wallet.close} footer={<Footer show={config.showPoweredBy !== false} />}>
      <ChainList onSwitched={wallet.close} />
    </Modal>
  )
}
