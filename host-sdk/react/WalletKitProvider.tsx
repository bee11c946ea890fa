import { useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { watchAccount, type AccountState, type AccountWatch } from '../account.ts'
import { createWalletKit, type WalletKit, type WalletKitOptions } from '../kit.ts'
import { Context } from './context.ts'

export type WalletKitProviderProps = { options: WalletKitOptions; children?: ReactNode }

const loading: AccountState = { status: 'loading' }

/**
 * Creates the page's wallet kit on the client (never while rendering on a server) and shares it
 * with useWalletKit() and <ConnectButton>. Providers may not be nested: a page has one kit.
 */
export function WalletKitProvider({ options, children }: WalletKitProviderProps) {
  if (useContext(Context)) throw new Error('WalletKitProvider may not be nested: keep one at the root of the app')
  const [kit, setKit] = useState<WalletKit | null>(null)
  const [account, setAccount] = useState<AccountState>(loading)
  const watch = useRef<AccountWatch | null>(null)
  // Options are plain data: a new object with the same values must not recreate the kit.
  const key = JSON.stringify(options)

  useEffect(() => {
    const created = createWalletKit(JSON.parse(key) as WalletKitOptions)
    const w = watchAccount(created, setAccount)
    watch.current = w
    setKit(created)
    return () => {
      w.stop()
      created.destroy()
      watch.current = null
      setKit(null)
      setAccount(loading)
    }
  }, [key])

  const value = useMemo(
    () => ({ kit, account, connect: () => watch.current?.connect() ?? Promise.reject(new Error('The wallet kit is not ready yet')) }),
    [kit, account],
  )
  return <Context.Provider value={value}>{children}</Context.Provider>
}
