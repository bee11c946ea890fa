import { useEffect, useRef, useState } from 'react'
import { watchAccount, type AccountState, type AccountWatch } from '../account.ts'
import { shortAddress } from '../../bridge/format.ts'
import type { WalletKit } from '../kit.ts'
import { buttonCss, labels } from './styles.ts'

export type ElementProps = {
  appId?: string
  env?: string
  theme?: string
  locale?: string
  providerUrl?: string
  onConnect?: (detail: unknown) => void
  onDisconnect?: (detail: unknown) => void
  onAccountsChanged?: (detail: unknown) => void
  onChainChanged?: (detail: unknown) => void
}

/** The page's kit, or a new one from the element's attributes. Set by defineWalletKitElement. */
export type KitSource = (props: ElementProps) => WalletKit

/**
 * <wallet-kit>: a connect button; once connected the short address and balance, which open the
 * profile modal. Written against React's API; kit.js renders it with ./mini-react.ts.
 */
export function createElementComponent(source: KitSource) {
  // `container`: the element's shadow root (r2wc passes it); the kit waits until its host is in the page.
  // biome-ignore lint/correctness/noComponentHookFactories: made once per custom element definition (define.ts), never while rendering, so its identity is stable
  return function WalletKitElement(props: ElementProps & { container?: Node }) {
    // r2wc renders on every attribute set, even before the element is in the page; frameworks
    // (Vue, Angular, Lit) create it and set attributes one by one, so the kit is made on the first
    // render with the element in the page, when every attribute is there.
    const made = useRef<WalletKit | Error | null>(null)
    const host = props.container && 'host' in props.container ? (props.container as ShadowRoot).host : null
    if (!made.current && (!host || host.isConnected)) {
      try {
        made.current = source(props)
      } catch (err) {
        console.error(err)
        made.current = err as Error
      }
    }
    const kit = made.current
    const [account, setAccount] = useState<AccountState>({ status: 'loading' })
    const [watch, setWatch] = useState<AccountWatch | null>(null)
    // The page may set new callbacks at any time; the kit's listeners call whichever are current.
    const latest = useRef(props)
    latest.current = props

    useEffect(() => {
      if (!kit || kit instanceof Error) return
      const w = watchAccount(kit, setAccount)
      setWatch(w)
      const events: [string, keyof ElementProps][] = [
        ['connect', 'onConnect'],
        ['disconnect', 'onDisconnect'],
        ['accountsChanged', 'onAccountsChanged'],
        ['chainChanged', 'onChainChanged'],
      ]
      const forward = events.map(
        ([event, prop]) => [event, (detail: unknown) => (latest.current[prop] as ((detail: unknown) => void) | undefined)?.(detail)] as const,
      )
      for (const [event, fn] of forward) kit.on(event as 'connect', fn)
      return () => {
        w.stop()
        for (const [event, fn] of forward) kit.off(event as 'connect', fn)
      }
    }, [kit])

    const text = labels[props.locale === 'id' ? 'id' : 'en']
    const connected = account.status === 'connected' && account.address
    const onClick = () => {
      if (!kit || kit instanceof Error) return
      if (connected) void kit.open('profile').catch(console.error)
      else void watch?.connect()
    }
    return (
      <>
        <style>{buttonCss}</style>
        <button
          type="button"
          part="button"
          className="wk-button"
          data-theme={props.theme === 'light' ? 'light' : 'dark'}
          data-status={account.status}
          disabled={!kit || kit instanceof Error || account.status === 'connecting'}
          title={kit instanceof Error ? kit.message : undefined}
          onClick={onClick}
        >
          {connected ? (
            <>
              <span className="wk-address">{shortAddress(account.address!)}</span>
              {account.balance ? <span className="wk-balance">{account.balance}</span> : null}
            </>
          ) : account.status === 'connecting' ? (
            text.connecting
          ) : (
            text.connect
          )}
        </button>
      </>
    )
  }
}
