import { formatAmount } from '../bridge/format.ts'
import { nativeSymbol } from './chains.ts'
import type { WalletKit } from './kit.ts'

/** A wei amount (hex quantity) in whole units of an 18-decimals native currency, by the display rules the frame uses too (bridge/format.ts). */
export const formatWei = (hex: string): string => formatAmount(Number(BigInt(hex)) / 1e18)

/** What a connect button shows. `loading` until the first read answers. */
export type AccountState = {
  readonly status: 'loading' | 'disconnected' | 'connecting' | 'connected'
  readonly address?: string
  readonly chainId?: number
  /** The native balance, formatted with its symbol (`1.25 ETH`). */
  readonly balance?: string
}

export type AccountWatch = {
  /** eth_requestAccounts: opens the connect modal when nobody is connected. */
  connect(): Promise<void>
  stop(): void
}

const refreshOn = ['connect', 'disconnect', 'accountsChanged', 'chainChanged', 'close'] as const

/**
 * Follows the kit's account for a button: address, chain and balance, read again on every
 * account or chain event and when the modal closes (a transaction may have changed the balance).
 */
export function watchAccount(kit: WalletKit, changed: (state: AccountState) => void): AccountWatch {
  const request = kit.provider.request
  let state: AccountState = { status: 'loading' }
  let reads = 0
  let stopped = false
  const set = (next: AccountState) => {
    if (stopped) return
    state = next
    changed(next)
  }

  async function read(): Promise<void> {
    const n = ++reads
    try {
      const [address] = (await request({ method: 'eth_accounts' })) as string[]
      if (!address) return void (n === reads && set({ status: 'disconnected' }))
      const chainId = Number(await request({ method: 'eth_chainId' }))
      if (n === reads) set({ status: 'connected', address, chainId, ...(state.address === address && state.chainId === chainId && { balance: state.balance }) })
      const wei = (await request({ method: 'eth_getBalance', params: [address, 'latest'] })) as string
      if (n === reads) set({ ...state, balance: `${formatWei(wei)} ${nativeSymbol(chainId)}` })
    } catch {
      if (n === reads && state.status !== 'connected') set({ status: 'disconnected' })
    }
  }

  const refresh = () => void read()
  for (const event of refreshOn) kit.on(event, refresh)
  refresh()
  return {
    async connect() {
      set({ status: 'connecting' })
      await request({ method: 'eth_requestAccounts' }).catch(() => {})
      await read()
    },
    stop() {
      stopped = true
      for (const event of refreshOn) kit.off(event, refresh)
    },
  }
}
