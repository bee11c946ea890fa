import type { WalletDescriptor } from '../bridge/index.ts'
import type { ChainConfig } from '../sdk/index.ts'
import { createActiveChain } from './active-chain.ts'
import { createConnection } from './connection.ts'
import type { HostPort } from './host-port.ts'
import { createModalControl } from './modal-control.ts'
import type { Session } from './session.ts'
import type { SessionOwner } from './session-owner.ts'
import { createStore, slice, type ReadStore, type Slice, type Store } from './store.ts'
import { initialUi, keysOf, type ConfirmationKey, type UiState } from './ui-state.ts'

/**
 * The widget's state, one face for the bridge handlers and React: the public UI state (`ui`, read
 * only), the modals and their pages (modal-control.ts), who is connected (connection.ts) and the
 * active chain (active-chain.ts). Each part of `ui` is written by its owner alone (ui-state.ts);
 * the session and its tokens are the session owner's (session-owner.ts).
 */
export function createWallet(deps: {
  appId: string
  env: Session['env']
  /** The host page this frame serves (checked against the app's allowed origins). */
  hostOrigin: string
  chains: readonly ChainConfig[]
  owner: SessionOwner
  host: HostPort
  /** Revokes the held session on the service (its tokens are refused from then on); may fail, offline say. */
  logout?: () => Promise<void>
  /** Tests only (wallet.fixture.ts): the store under `ui`, to set a scene directly. */
  store?: Store<UiState>
}) {
  const store = deps.store ?? createStore<UiState>({ ...initialUi, chainId: deps.chains[0]?.chainId ?? 31337 })
  const modals = createModalControl(slice(store, keysOf('modal')), deps.host)
  const chain = createActiveChain(slice(store, keysOf('chain')), deps.chains, deps.owner, deps.host)
  const connection = createConnection({
    ui: slice(store, keysOf('connection')),
    owner: deps.owner,
    host: deps.host,
    modals,
    chain,
    site: deps.hostOrigin,
    logout: deps.logout,
  })
  const hostWallets = slice(store, keysOf('hostWallets'))
  let confirmationState: Slice<UiState, ConfirmationKey> | null = slice(store, keysOf('confirmations'))
  const ui: ReadStore<UiState> = { get: store.get, subscribe: store.subscribe }
  return {
    ui,
    hostOrigin: deps.hostOrigin,
    host: deps.host,
    ...modals,
    ...connection,
    chains: chain.chains,
    chain: chain.chain,
    chainId: chain.chainId,
    switchChain: chain.switchChain,
    /** The injected wallets the host page announced (already screened by the bridge). */
    setWallets: (wallets: readonly WalletDescriptor[]) => hostWallets.set({ wallets }),
    /** The confirmation queue's part of the state, handed to it once (confirmation.ts); a second claim throws. */
    claimConfirmationState(): Slice<UiState, ConfirmationKey> {
      if (!confirmationState) throw new Error('The confirmation state has an owner already')
      const claimed = confirmationState
      confirmationState = null
      return claimed
    },
  }
}

export type Wallet = ReturnType<typeof createWallet>
