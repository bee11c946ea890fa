import * as Provider from 'ox/Provider'
import type { ExternalConnection, HostEvent, OpenTarget, Result, View } from '../bridge/index.ts'
import type { ChainConfig } from '../sdk/index.ts'
import type { Session, SessionStore } from './session.ts'
import { createStore } from './store.ts'
import { initialUi, type ConnectPage, type UiState } from './ui-state.ts'

export type HostPort = {
  setVisible(visible: boolean): void
  emit(event: HostEvent, payload: unknown): void
  connectExternal(walletId: string): Promise<Result<ExternalConnection>>
  openUrl(url: string, target: OpenTarget): void
}

export type LoggedIn = { token: string; refreshToken: string; address: `0x${string}` }

/** SPEC.md section 9: the connect page resets to home this long after the modal closes. */
export const resetDelayMs = 50

/**
 * The widget's state machine: which modal is open, the connect page stack, the session, and the
 * `eth_requestAccounts` calls waiting for a login. Bridge handlers and React both drive it.
 */
export function createWallet(deps: {
  appId: string
  env: Session['env']
  chains: readonly ChainConfig[]
  sessions: SessionStore
  host: HostPort
  /** Told of every session change, so the service client holds the current tokens. */
  onSession?: (session: Session | null) => void
}) {
  const ui = createStore<UiState>(initialUi)
  const waiting: { resolve(a: readonly string[]): void; reject(e: Error): void }[] = []
  let resetTimer: ReturnType<typeof setTimeout> | undefined
  let announced = false

  const defaultChainId = deps.chains[0]?.chainId ?? 31337

  function open(view: View) {
    clearTimeout(resetTimer)
    ui.set({ view })
    deps.host.setVisible(true)
  }

  function close() {
    const { view, session } = ui.get()
    if (view === null) return
    ui.set({ view: null, secret0: null })
    deps.host.setVisible(false)
    // Closing the wallet-created page without Done still leaves the new user logged in.
    if (session && !announced) announce(session)
    for (const w of waiting.splice(0)) w.reject(new Provider.UserRejectedRequestError({ message: 'User closed the modal' }))
    resetTimer = setTimeout(() => ui.set({ page: 'home', history: [], direction: 'back', otpTarget: null }), resetDelayMs)
  }

  function navigate(page: ConnectPage) {
    ui.set((s) => ({ page, history: [...s.history, s.page], direction: 'forward' }))
  }

  function back() {
    ui.set((s) => {
      const history = s.history.slice(0, -1)
      return { page: s.history.at(-1) ?? 'home', history, direction: 'back' }
    })
  }

  async function logIn(login: LoggedIn): Promise<Session> {
    const session = await deps.sessions.save({
      ...login,
      chainId: ui.get().session?.chainId ?? defaultChainId,
      appId: deps.appId,
      env: deps.env,
    })
    announced = false
    ui.set({ session })
    deps.onSession?.(session)
    return session
  }

  /** Tells the host and every waiting `eth_requestAccounts` that an account is connected. */
  function announce(session: Session) {
    announced = true
    const accounts = [session.address]
    for (const w of waiting.splice(0)) w.resolve(accounts)
    deps.host.emit('connect', { chainId: `0x${session.chainId.toString(16)}` })
    deps.host.emit('accountsChanged', accounts)
  }

  async function restore() {
    const session = await deps.sessions.load()
    announced = session !== null
    ui.set({ session })
    deps.onSession?.(session)
  }

  async function disconnect() {
    await deps.sessions.clear()
    ui.set({ session: null })
    deps.onSession?.(null)
    deps.host.emit('accountsChanged', [])
  }

  function requestAccounts(): Promise<readonly string[]> {
    const { session } = ui.get()
    if (session) return Promise.resolve([session.address])
    return new Promise((resolve, reject) => {
      waiting.push({ resolve, reject })
      open('connect')
    })
  }

  const chainId = () => ui.get().session?.chainId ?? defaultChainId

  return { ui, open, close, navigate, back, logIn, announce, restore, disconnect, requestAccounts, chainId }
}

export type Wallet = ReturnType<typeof createWallet>
