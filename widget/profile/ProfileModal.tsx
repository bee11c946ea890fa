import { useState } from 'react'
import { ChainIcon, ChainList } from '../chain/ChainList.tsx'
import { useWidget } from '../context.ts'
import { shortAddress } from '../format.ts'
import { useStore } from '../store.ts'
import { Footer } from '../ui/Footer.tsx'
import { Modal } from '../ui/Modal.tsx'
import { useCopy } from '../use-copy.ts'
import { Receive } from './Receive.tsx'
import { useBalance } from './use-balance.ts'

type Screen = 'home' | 'receive' | 'chain'
const titles: Record<Screen, string> = { home: 'Personal Wallet', receive: 'Receive', chain: 'Switch Chain' }

export function ProfileModal() {
  const { wallet, config } = useWidget()
  const [screen, setScreen] = useState<Screen>('home')
  const address = useStore(wallet.ui, (s) => s.session?.address ?? s.external?.address)
  const chainId = useStore(wallet.ui, (s) => s.chainId)
  const chain = wallet.chain(chainId)
  const balance = useBalance(address, chainId)
  const [notice, copy] = useCopy()

  if (!address)
    return (
      <Modal testId="profile-empty" title="Personal Wallet" onClose={wallet.close}>
        <p className="wk-text">Not connected.</p>
      </Modal>
    )

  return (
    <Modal
      testId={`profile-${screen}`}
      title={titles[screen]}
      onClose={wallet.close}
      onBack={screen === 'home' ? undefined : () => setScreen('home')}
      footer={<Footer show={config.showPoweredBy !== false} />}
    >
      {screen === 'receive' && <Receive address={address} />}
      {screen === 'chain' && <ChainList onSwitched={() => setScreen('home')} />}
      {screen === 'home' && (
        <div className="wk-stack">
          <div className="wk-card wk-row">
            <div>
              <div className="wk-muted">Personal Wallet</div>
              <div className="wk-address" data-testid="profile-address">
                {shortAddress(address)}
              </div>
            </div>
            <button
              type="button"
              className="wk-link"
              onClick={() => copy(address)}
            >
              Copy
            </button>
          </div>
          <p className="wk-notice" role="status">
            {notice}
          </p>
          <div className="wk-row wk-row--even">
            <button type="button" className="wk-button" onClick={() => setScreen('receive')}>
              Receive
            </button>
          </div>
          <button type="button" className="wk-list-row wk-card" onClick={() => setScreen('chain')} aria-label="Switch chain">
            {chain && <ChainIcon network={chain.network} />}
            <span className="wk-grow">{chain?.name ?? 'Unknown chain'}</span>
            <span data-testid="profile-balance">
              {balance.data ?? (balance.isError ? '—' : '…')} {chain?.nativeCurrency.symbol}
            </span>
          </button>
          <button
            type="button"
            className="wk-button wk-button--danger"
            onClick={() => {
              void wallet.disconnect()
              wallet.close()
            }}
          >
            Disconnect Wallet
          </button>
        </div>
      )}
    </Modal>
  )
}
