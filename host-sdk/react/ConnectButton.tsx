import { buttonCss, labels } from '../element/styles.ts'
import { shortAddress } from '../../bridge/format.ts'
import { useWalletKit } from './useWalletKit.ts'

export type ConnectButtonProps = { theme?: 'dark' | 'light'; locale?: 'en' | 'id'; className?: string }

/** The same button as <wallet-kit>: Connect, or the short address and balance (opens the profile). */
export function ConnectButton({ theme = 'dark', locale = 'en', className }: ConnectButtonProps) {
  const { address, balance, status, connect, open } = useWalletKit()
  const text = labels[locale]
  const connected = status === 'connected' && address
  return (
    <>
      {/* React 19 hoists this into <head> once, however many buttons render it. */}
      <style href="wallet-kit-button" precedence="default">
        {buttonCss}
      </style>
      <button
        type="button"
        className={className ? `wk-button ${className}` : 'wk-button'}
        data-theme={theme}
        data-status={status}
        disabled={status === 'connecting' || status === 'loading'}
        onClick={() => void (connected ? open('profile') : connect()).catch(() => {})}
      >
        {connected ? (
          <>
            <span className="wk-address">{shortAddress(address)}</span>
            {balance ? <span className="wk-balance">{balance}</span> : null}
          </>
        ) : status === 'connecting' ? (
          text.connecting
        ) : (
          text.connect
        )}
      </button>
    </>
  )
}
