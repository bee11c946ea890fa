import { useId, useState } from 'react'
import { sameAddress } from '../../../bridge/rpc-params.ts'
import type { SmartAccount } from '../../../sdk/index.ts'
import { ChainIcon } from '../../chain/ChainList.tsx'
import { useStore, useWidget, useT } from '../../context.ts'
import { shortAddress } from '../../format.ts'
import type { Messages } from '../../i18n.ts'
import { useCopy } from '../../use-copy.ts'
import { errorText } from '../../use-timed.ts'
import { chainDisplayName } from './chain-names.ts'
import { useActivate, useSmartAccounts } from './use-smart-accounts.ts'

/**
 * What each status reads as: not_deployed 'Not Activated', deploying 'Activating', deployed
 * 'Activated'; any value the service adds later is 'Unknown'.
 */
const statusLabel = (status: string): keyof Pick<Messages, 'notActivated' | 'activatingStatus' | 'activated' | 'unknownStatus'> =>
  status === 'not_deployed' ? 'notActivated' : status === 'deploying' ? 'activatingStatus' : status === 'deployed' ? 'activated' : 'unknownStatus'

/**
 * The profile's 'smart-account' page: the signed-in embedded wallet's smart accounts, one per chain
 * of the app, each with its address (and Copy), its status, and Activate while not activated.
 * Another kind of session (a WalletConnect wallet) owns none here.
 */
export function SmartAccounts() {
  const { wallet } = useWidget()
  const t = useT()
  const owner = useStore(wallet.ui, (s) => (s.session && !s.session.walletConnect ? s.session.address : null))
  return owner ? <AccountList owner={owner} /> : <p className="wk-text">{t.notConnected}</p>
}

function AccountList({ owner }: { owner: `0x${string}` }) {
  const { config } = useWidget()
  const t = useT()
  const accounts = useSmartAccounts(owner)
  const [notice, copy] = useCopy()

  if (accounts.isPending)
    return (
      <div className="wk-waiting">
        <span className="wk-spinner" role="img" aria-label={t.loading} />
      </div>
    )
  if (accounts.isError && !accounts.data)
    return (
      <div className="wk-stack">
        <p className="wk-error" role="alert">
          {errorText(accounts.error)}
        </p>
        <button type="button" className="wk-button" disabled={accounts.isFetching} onClick={() => void accounts.refetch()}>
          {t.tryAgain}
        </button>
      </div>
    )
  if (accounts.data.length === 0) return <p className="wk-text">{t.noSmartWallets}</p>
  return (
    <div className="wk-stack">
      <UseOnSite accounts={accounts.data} />
      <ul className="wk-list wk-stack" aria-label={t.smartWallet}>
        {accounts.data.map((account) => (
          <AccountRow key={account.id} owner={owner} account={account} name={chainDisplayName(account, config.chains ?? [])} copy={copy} />
        ))}
      </ul>
      <p className="wk-notice" role="status">
        {notice}
      </p>
    </div>
  )
}

/**
 * Which account the site sees: the personal (embedded) wallet, or its smart account (one address on
 * every chain; signatures, sends and batches then go through it, sponsored). Switching tells the host
 * (accountsChanged) and the other tabs.
 */
function UseOnSite({ accounts }: { accounts: readonly SmartAccount[] }) {
  const { wallet } = useWidget()
  const t = useT()
  const inUse = useStore(wallet.ui, (s) => s.session?.smartAccount?.address ?? null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const address = accounts[0]!.aaAddress as `0x${string}`
  const same = accounts.filter((a) => sameAddress(a.aaAddress, address))
  async function toggle() {
    setBusy(true)
    setError(null)
    try {
      await wallet.showSmartAccount(inUse ? null : { address, accounts: Object.fromEntries(same.map((a) => [String(a.chainId), a.id])) })
    } catch (err) {
      setError(errorText(err))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="wk-card wk-stack wk-stack--tight">
      <button type="button" className="wk-button" disabled={busy} onClick={() => void toggle()}>
        {inUse ? t.usePersonalWallet : t.useOnThisSite}
      </button>
      <p className="wk-error" role="alert">
        {error}
      </p>
    </div>
  )
}

function AccountRow({ owner, account, name, copy }: { owner: `0x${string}`; account: SmartAccount; name: string; copy: (text: string) => void }) {
  const t = useT()
  const { activate, pending, error } = useActivate(owner, account)
  // The row's buttons are named by what they do ('Copy', 'Activate') and described by the chain they act on.
  const nameId = useId()
  return (
    <li className="wk-card wk-stack wk-stack--tight" data-testid="smart-account">
      <div className="wk-row">
        <ChainIcon network={account.network} />
        <span id={nameId} className="wk-grow">
          {name}
        </span>
        <span className="wk-badge" data-testid="smart-account-status">
          {t[statusLabel(account.status)]}
        </span>
      </div>
      <div className="wk-row">
        <span className="wk-address" title={account.aaAddress}>
          {shortAddress(account.aaAddress)}
        </span>
        <button type="button" className="wk-link" aria-describedby={nameId} onClick={() => copy(account.aaAddress)}>
          {t.copy}
        </button>
      </div>
      {account.status === 'not_deployed' && (
        <button
          type="button"
          className="wk-button wk-button--primary"
          aria-describedby={nameId}
          aria-busy={pending}
          disabled={pending}
          onClick={() => void activate()}
        >
          {pending ? t.activatingPending : t.activate}
        </button>
      )}
      <p className="wk-error" role="alert">
        {error}
      </p>
    </li>
  )
}
