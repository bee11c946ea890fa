import { Suspense, type ReactNode } from 'react'
import { ChainIcon, ChainList } from '../chain/ChainList.tsx'
import { ExplorerLink } from '../chain/ExplorerLink.tsx'
import { useStore, useWidget, useT } from '../context.ts'
import { shortAddress } from '../format.ts'
import type { Locale } from '../i18n.ts'
import { lazyRoute, RouteError } from '../lazy-route.ts'
import { isPageOf } from '../modal-control.ts'
import type { ProfilePage } from '../ui-state.ts'
import { Buy } from '../onramp/Buy.tsx'
import { SelectList } from '../onramp/SelectList.tsx'
import { useOnramp, type Onramp } from '../onramp/use-onramp.ts'
import { Footer, Modal } from '../ui/Modal.tsx'
import { useCopy } from '../use-copy.ts'
import { Queries } from './queries.tsx'
import { useBalance } from './use-balance.ts'

// The QR code library is the profile's largest part: it loads with the Receive page.
const Receive = lazyRoute(
  () => import('./Receive.tsx'),
  (m) => m.Receive,
)

// The smart wallet's page, with its service calls and the signing of Activate (smart-account/).
const CallsStatus = lazyRoute(
  () => import('./CallsStatus.tsx'),
  (m) => m.CallsStatus,
)

const SmartAccounts = lazyRoute(
  () => import('./smart-account/SmartAccounts.tsx'),
  (m) => m.SmartAccounts,
)

// Restoring the wallet from its recovery file, with the page's own strings.
const Recovery = lazyRoute(
  () => import('./recovery/Recovery.tsx'),
  (m) => m.Recovery,
)

// Exporting the private key after a confirmation code, with the page's own strings.
const ExportKey = lazyRoute(
  () => import('./export-key/ExportKey.tsx'),
  (m) => m.ExportKey,
)

// The signed-in user's passkeys: add, list, remove (its strings and WebAuthn code in its chunk).
const Passkeys = lazyRoute(
  () => import('./passkeys/Passkeys.tsx'),
  (m) => m.Passkeys,
)

// The user's own amount above which a transaction asks a code (its strings in its chunk).
const Security = lazyRoute(
  () => import('./security/Security.tsx'),
  (m) => m.Security,
)

/** The profile modal's route titles. */
const titleKeys = {
  home: 'personalWallet',
  receive: 'receive',
  chain: 'switchChain',
  onramp: 'buy',
  'select-currency': 'selectCurrency',
  'select-crypto': 'selectCrypto',
  'smart-account': 'smartWallet',
  'calls-status': 'callsStatus',
  recovery: 'restoreFromFile',
  'export-key': 'exportKey',
  passkeys: 'passkeys',
  security: 'security',
} as const satisfies Record<ProfilePage, string>

/** The profile with its cached reads (loaded together, lazily). */
export const ProfileWithQueries = () => (
  <Queries>
    <ProfileModal />
  </Queries>
)

type Nav = { go(page: ProfilePage): void; back(): void }

/** The profile modal's routes: every page shares the Buy state the modal holds across them. */
const routes: Record<ProfilePage, (props: { address: `0x${string}`; nav: Nav; onramp: Onramp }) => ReactNode> = {
  home: ({ address, nav, onramp }) => <ProfileHome address={address} nav={nav} onramp={onramp} />,
  receive: ({ address }) => <Receive address={address} />,
  chain: ({ nav }) => <ChainList onSwitched={nav.back} />,
  onramp: ({ address, nav, onramp }) => (
    <Buy onramp={onramp} address={address} choose={(list) => nav.go(list === 'fiat' ? 'select-currency' : 'select-crypto')} />
  ),
  'select-currency': ({ nav, onramp }) => <SelectCurrency nav={nav} onramp={onramp} />,
  'select-crypto': ({ nav, onramp }) => <SelectCrypto nav={nav} onramp={onramp} />,
  'smart-account': () => <SmartAccounts />,
  'calls-status': () => <CallsStatus />,
  passkeys: () => <Passkeys />,
  security: () => <Security />,
  recovery: ({ address }) => <Recovery address={address} />,
  'export-key': () => <ExportKey />,
}

function SelectCurrency({ nav, onramp }: { nav: Nav; onramp: Onramp }) {
  const t = useT()
  return (
    <SelectList
      label={t.selectCurrency}
      items={onramp.fiats}
      selected={onramp.fiat?.id}
      render={(f) => ({ title: `${f.currency}`, detail: f.symbol, icon: f.logo })}
      onPick={(id) => {
        onramp.setFiat(id)
        nav.back()
      }}
    />
  )
}

function SelectCrypto({ nav, onramp }: { nav: Nav; onramp: Onramp }) {
  const t = useT()
  return (
    <SelectList
      label={t.selectCrypto}
      items={onramp.cryptos}
      selected={onramp.crypto?.id}
      render={(c) => ({ title: c.label, icon: c.logo })}
      onPick={(id) => {
        onramp.setCrypto(id)
        nav.back()
      }}
    />
  )
}

export function ProfileModal() {
  const { wallet, config } = useWidget()
  const t = useT()
  const shown = useStore(wallet.ui, (s) => s.page)
  const direction = useStore(wallet.ui, (s) => s.direction)
  const page: ProfilePage = isPageOf('profile', shown) ? (shown as ProfilePage) : 'home'
  const address = useStore(wallet.ui, (s) => s.session?.address ?? s.external?.address)
  const onramp = useOnramp(page === 'onramp' || page.startsWith('select-'))

  if (!address)
    return (
      <Modal testId="profile-empty" title={t.personalWallet} onClose={wallet.close}>
        <p className="wk-text">{t.notConnected}</p>
      </Modal>
    )

  const Page = routes[page]
  return (
    <Modal
      testId={`profile-${page}`}
      title={t[titleKeys[page]]}
      onClose={wallet.close}
      onBack={page === 'home' ? undefined : wallet.back}
      footer={<Footer show={config.showPoweredBy !== false} />}
    >
      <div key={page} className={`wk-page wk-page--${direction}`}>
        <RouteError
          resetKey={page}
          fallback={
            <p className="wk-error" role="alert">
              {t.somethingWrong}
            </p>
          }
        >
          <Suspense fallback={null}>
            <Page address={address} nav={{ go: wallet.navigate, back: wallet.back }} onramp={onramp} />
          </Suspense>
        </RouteError>
      </div>
    </Modal>
  )
}

/** The current chain is not among the app's (kept here: i18n.ts's English rides in the frame's first route). */
const unknownChain: Record<Locale, string> = { en: 'Unknown chain', id: 'Jaringan tidak dikenal' }

function ProfileHome({ address, nav, onramp }: { address: `0x${string}`; nav: Nav; onramp: Onramp }) {
  const { wallet, config, locale } = useWidget()
  const t = useT()
  const chainId = useStore(wallet.ui, (s) => s.chainId)
  // Smart accounts belong to the embedded wallet: a WalletConnect or host-page wallet has none here.
  const embedded = useStore(wallet.ui, (s) => !!s.session && !s.session.walletConnect)
  const chain = wallet.chain(chainId)
  const balance = useBalance(address, chainId)
  const [notice, copy] = useCopy()
  return (
    <div className="wk-stack">
      <div className="wk-card wk-row">
        <div>
          <div className="wk-muted">{t.personalWallet}</div>
          <div className="wk-address" data-testid="profile-address">
            {shortAddress(address)}
          </div>
          <ExplorerLink chain={chain} kind="address" value={address} />
        </div>
        <button type="button" className="wk-link" onClick={() => copy(address)}>
          {t.copy}
        </button>
      </div>
      <p className="wk-notice" role="status">
        {notice}
      </p>
      <div className="wk-row wk-row--even">
        <button type="button" className="wk-button" onClick={() => nav.go('receive')}>
          {t.receive}
        </button>
        {onramp.enabled && (
          // The profile's Buy button is inert until a crypto and a fiat are selected.
          <button type="button" className="wk-button" disabled={!onramp.fiat || !onramp.crypto} onClick={() => nav.go('onramp')}>
            {t.buy}
          </button>
        )}
      </div>
      <button type="button" className="wk-list-row wk-card" onClick={() => nav.go('chain')} aria-label={t.switchChain}>
        {chain && <ChainIcon network={chain.network} />}
        <span className="wk-grow">{chain?.name ?? unknownChain[locale]}</span>
        <span data-testid="profile-balance">
          {balance.data ?? (balance.isError ? '—' : '…')} {chain?.nativeCurrency.symbol}
        </span>
      </button>
      {config.isAAEnabled && embedded && (
        <button type="button" className="wk-list-row wk-card" onClick={() => nav.go('smart-account')}>
          <span className="wk-grow">{t.smartWallet}</span>
          <span aria-hidden="true">›</span>
        </button>
      )}
      {embedded && (
        <button type="button" className="wk-list-row wk-card" onClick={() => nav.go('recovery')}>
          <span className="wk-grow">{t.restoreFromFile}</span>
          <span aria-hidden="true">›</span>
        </button>
      )}
      {embedded && (
        <button type="button" className="wk-list-row wk-card" onClick={() => nav.go('export-key')}>
          <span className="wk-grow">{t.exportKey}</span>
          <span aria-hidden="true">›</span>
        </button>
      )}
      {embedded && (
        <button type="button" className="wk-list-row wk-card" onClick={() => nav.go('passkeys')}>
          <span className="wk-grow">{t.passkeys}</span>
          <span aria-hidden="true">›</span>
        </button>
      )}
      {embedded && (
        <button type="button" className="wk-list-row wk-card" onClick={() => nav.go('security')}>
          <span className="wk-grow">{t.security}</span>
          <span aria-hidden="true">›</span>
        </button>
      )}
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
  )
}
