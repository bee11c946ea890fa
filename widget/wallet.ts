import type { ExternalConnection, HostEvent, OpenTarget, Result } from '../bridge/index.ts'
import type { ChainConfig } from '../sdk/index.ts'
import { createActiveChain } from './active-chain.ts'
import { createConnection } from './connection.ts'
import { createModalControl } from './modal-control.ts'
import type { Session } from './session.ts'
import type { SessionOwner } from './session-owner.ts'
import { createStore } from './store.ts'
import { initialUi, type UiState } from './ui-state.ts'

/** What the frame may ask of the host page (bridge/methods.ts HostMethods). */
export type HostPort = {
  setVisible(visible: boolean): void
  emit(event: HostEvent, payload: unknown): void
  connectExternal(walletId: string): Promise<Result<ExternalConnection>>
  openUrl(url: string, target: OpenTarget): void
}

/**
 * The widget's state, one face for the bridge handlers and React: the public UI state (`ui`), the
 * modals and their pages (modal-control.ts), who is connected (connection.ts) and the active chain
 * (active-chain.ts). The session and its tokens are the session owner's (session-owner.ts).
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
}) {
  const ui = createStore<UiState>({ ...initialUi, chainId: deps.chains[0]?.chainId ?? 31337 })
  const modals = createModalControl(ui, deps.host)
  const chain = createActiveChain(ui, deps.chains, deps.owner, deps.host)
  const connection = createConnection({ ui, owner: deps.owner, host: deps.host, modals, chain, site: deps.hostOrigin, logout: deps.logout })
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
  }
}

export type Wallet = ReturnType<typeof createWallet>
