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
import { useT } from '../i18n.ts'

type Screen = 'home' | 'receive' | 'chain'
const titleKeys = { home: 'personalWallet', receive: 'receive', chain: 'switchChain' } as const

export function ProfileModal() {
  const { wallet, config } = useWidget()
  const t = useT()
  const [screen, setScreen] = useState<Screen>('home')
  const address = useStore(wallet.ui, (s) => s.session?.address ?? s.external?.address)
  const chainId = useStore(wallet.ui, (s) => s.chainId)
  const chain = wallet.chain(chainId)
  const balance = useBalance(address, chainId)
  const [notice, copy] = useCopy()

  if (!address)
    return (
      <Modal testId="profile-empty" title={t.personalWallet} onClose={wallet.close}>
        <p className="wk-text">{t.notConnected}</p>
      </Modal>
    )

  return (
    <Modal
      testId={`profile-${screen}`}
      title={t[titleKeys[screen]]}
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
              <div className="wk-muted">{t.personalWallet}</div>
              <div className="wk-address" data-testid="profile-address">
                {shortAddress(address)}
              </div>
            </div>
            <button
              type="button"
              className="wk-link"
              onClick={() => copy(address)}
            >
              {t.copy}
            </button>
          </div>
          <p className="wk-notice" role="status">
            {notice}
          </p>
          <div className="wk-row wk-row--even">
            <button type="button" className="wk-button" onClick={() => setScreen('receive')}>
              {t.receive}
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
            {t.disconnect}
          </button>
        </div>
      )}
    </Modal>
  )
}
