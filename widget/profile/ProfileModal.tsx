import { useState } from 'react'
import { ChainIcon, ChainList } from '../chain/ChainList.tsx'
import { useWidget } from '../context.ts'
import { shortAddress } from '../format.ts'
import { useStore } from '../store.ts'
import { Footer } from '../ui/Footer.tsx'
import { Modal } from '../ui/Modal.tsx'
import { useCopy } from '../use-copy.ts'
import { Buy } from '../onramp/Buy.tsx'
import { SelectList } from '../onramp/SelectList.tsx'
import { useOnramp } from '../onramp/use-onramp.ts'
import { Receive } from './Receive.tsx'
import { useBalance } from './use-balance.ts'
import { useT } from '../i18n.ts'
import { Queries } from './queries.tsx'

type Screen = 'home' | 'receive' | 'chain' | 'onramp' | 'select-currency' | 'select-crypto'
const titleKeys = {
  home: 'personalWallet',
  receive: 'receive',
  chain: 'switchChain',
  onramp: 'buy',
  'select-currency': 'selectCurrency',
  'select-crypto': 'selectCrypto',
} as const

/** The profile with its cached reads (loaded together, lazily). */
export const ProfileWithQueries = () => (
  <Queries>
    <ProfileModal />
  </Queries>
)

export function ProfileModal() {
  const { wallet, config } = useWidget()
  const t = useT()
  const [screen, setScreen] = useState<Screen>('home')
  const address = useStore(wallet.ui, (s) => s.session?.address ?? s.external?.address)
  const chainId = useStore(wallet.ui, (s) => s.chainId)
  const chain = wallet.chain(chainId)
  const balance = useBalance(address, chainId)
  const [notice, copy] = useCopy()
  const onramp = useOnramp(screen === 'onramp' || screen.startsWith('select-'))

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
      onBack={screen === 'home' ? undefined : () => setScreen(screen.startsWith('select-') ? 'onramp' : 'home')}
      footer={<Footer show={config.showPoweredBy !== false} />}
    >
      {screen === 'receive' && <Receive address={address} />}
      {screen === 'chain' && <ChainList onSwitched={() => setScreen('home')} />}
      {screen === 'onramp' && (
        <Buy onramp={onramp} address={address} choose={(list) => setScreen(list === 'fiat' ? 'select-currency' : 'select-crypto')} />
      )}
      {screen === 'select-currency' && (
        <SelectList
          label={t.selectCurrency}
          items={onramp.fiats}
          selected={onramp.fiat?.id}
          render={(f) => ({ title: `${f.currency}`, detail: f.symbol, icon: f.logo })}
          onPick={(id) => (onramp.setFiat(id), setScreen('onramp'))}
        />
      )}
      {screen === 'select-crypto' && (
        <SelectList
          label={t.selectCrypto}
          items={onramp.cryptos}
          selected={onramp.crypto?.id}
          render={(c) => ({ title: c.label, icon: c.logo })}
          onPick={(id) => (onramp.setCrypto(id), setScreen('onramp'))}
        />
      )}
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
            {onramp.enabled && (
              // SPEC.md section 5: inert until a crypto and a fiat are selected.
              <button type="button" className="wk-button" disabled={!onramp.fiat || !onramp.crypto} onClick={() => setScreen('onramp')}>
                {t.buy}
              </button>
            )}
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
