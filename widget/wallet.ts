import * as Provider from 'ox/Provider'
import { fromNumber as numberToHex } from 'ox/Hex'
import type { ExternalConnection, HostEvent, OpenTarget, Result, View } from '../bridge/index.ts'
import type { ChainConfig } from '../sdk/index.ts'
import type { Session } from './session.ts'
import type { PublicSession, SessionOwner } from './session-owner.ts'
import { createStore } from './store.ts'
import { back as backFrom, forward, home, isPageOf, type Page } from './navigator.ts'
import { initialUi, type AccountState, type UiState } from './ui-state.ts'

export type HostPort = {
  setVisible(visible: boolean): void
  emit(event: HostEvent, payload: unknown): void
  connectExternal(walletId: string): Promise<Result<ExternalConnection>>
  openUrl(url: string, target: OpenTarget): void
}

function parseAccount(value: unknown): AccountState | null {
  if (typeof value !== 'object' || value === null) return null
  const { isPermissionGranted, acceptPermissionPage } = value as Record<string, unknown>
  if (typeof isPermissionGranted !== 'boolean') return null
  return { isPermissionGranted, acceptPermissionPage: typeof acceptPermissionPage === 'string' ? acceptPermissionPage : null }
}

/** SPEC.md section 9: the connect page resets to home this long after the modal closes. */
export const resetDelayMs = 50

/**
 * The widget's state machine: which modal is open, the connect page stack, the session, the
 * current chain, and the `eth_requestAccounts` calls waiting for a login. Bridge handlers and
 * React both drive it.
 */
export function createWallet(deps: {
  appId: string
  env: Session['env']
  /** The host page this frame serves (checked against the app's allowed origins). */
  hostOrigin: string
  chains: readonly ChainConfig[]
  /** The session and its tokens (session-owner.ts); the wallet holds only its public part. */
  owner: SessionOwner
  host: HostPort
  /** Revokes the held session on the service (its tokens are refused from then on); may fail, offline say. */
  logout?: () => Promise<void>
}) {
  const defaultChainId = deps.chains[0]?.chainId ?? 31337
  const ui = createStore<UiState>({ ...initialUi, chainId: defaultChainId })
  const waiting: { resolve(a: readonly string[]): void; reject(e: Error): void }[] = []
  const onClose = new Set<() => void>()
  let resetTimer: ReturnType<typeof setTimeout> | undefined
  let announced = false
  let adopted = 0

  function open(view: View) {
    clearTimeout(resetTimer)
    const { view: was, page } = ui.get()
    // Another modal starts on its home; the same one (reopened within 50 ms) keeps its page.
    ui.set(was === view || (was === null && isPageOf(view, page)) ? { view } : { view, ...home })
    const wasOpen = was !== null
    if (!wasOpen) deps.host.setVisible(true)
  }

  function close() {
    const { view, session, confirmation } = ui.get()
    // SPEC.md section 2: no closing while a confirmed request is being carried out; its answer comes.
    if (view === null || confirmation?.status === 'loading' || confirmation?.status === 'success') return
    ui.set({ view: null, secret0: null })
    deps.host.setVisible(false)
    // Closing the wallet-created page without Done still leaves the new user logged in.
    if (session && !announced) announce(session)
    for (const w of waiting.splice(0)) w.reject(new Provider.UserRejectedRequestError({ message: 'User closed the modal' }))
    for (const fn of onClose) fn()
    resetTimer = setTimeout(() => ui.set({ ...home, direction: 'back', otpTarget: null }), resetDelayMs)
  }

  /** Hides the modal without closing it: nothing pending is answered (a confirmation still being prepared). */
  function hide() {
    if (ui.get().view === null) return
    ui.set({ view: null })
    deps.host.setVisible(false)
  }

  function navigate(page: Page) {
    ui.set((s) => forward(s, page))
  }

  function back() {
    ui.set((s) => backFrom(s))
  }

  // The session changes in one place (session-owner.ts): a login here, another tab, or its end.
  deps.owner.subscribe(({ session, source }) => {
    if (source === 'login') {
      announced = false
      ui.set({ session: session && { address: session.address }, external: null, account: initialUi.account })
    } else if (source === 'remote') adopt(session)
    else ended()
  })

  /** The session ended here (a logout, a refresh the service refused): a request on screen shows its error. */
  function ended() {
    const had = ui.get().session
    adopted++
    ui.set({ session: null, external: null })
    if (!had) return
    deps.host.emit('accountsChanged', [])
    deps.host.emit('disconnect', { code: 4900, message: 'Disconnected' })
  }

  /** The login written by the sdk has been stored: the account to announce (after the post-login delay). */
  async function loggedIn(): Promise<{ address: `0x${string}` }> {
    await deps.owner.settled()
    const { session } = ui.get()
    if (!session) throw new Error('The login left no session')
    return session
  }

  /** Tells the host and every waiting `eth_requestAccounts` that an account is connected. */
  function announce(session: Pick<Session, 'address'>, chainId = ui.get().chainId) {
    announced = true
    const accounts = [session.address]
    for (const w of waiting.splice(0)) w.resolve(accounts)
    deps.host.emit('connect', { chainId: numberToHex(chainId) })
    deps.host.emit('accountsChanged', accounts)
  }

  /** The host connected an injected wallet in the top frame: it answers from now on. */
  function connectedExternally(walletId: string, connection: ExternalConnection) {
    ui.set({ external: { walletId, address: connection.accounts[0] as `0x${string}` } })
    for (const w of waiting.splice(0)) w.resolve(connection.accounts)
  }

  async function restore() {
    const seen = adopted
    const session = await deps.owner.restore()
    const account = session ? parseAccount(await deps.owner.loadAccount()) : null
    // Another tab's newer session arrived meanwhile: it wins over what was read.
    if (adopted !== seen) return
    announced = session !== null
    ui.set({
      session: session && { address: session.address },
      chainId: session && isConfigured(session.chainId) ? session.chainId : defaultChainId,
      ...(account && { account }),
    })
    // Whatever changes the account state (a 407, Setup Permission) is kept across reloads.
    let saved = ui.get().account
    ui.subscribe(() => {
      const { account: now, session: current } = ui.get()
      if (now === saved || !current) return
      saved = now
      void deps.owner.saveAccount(now)
    })
  }

  let disconnecting: Promise<void> | null = null

  /**
   * Ends the session: revoked on the service first (a copy of its tokens is then worthless), then
   * cleared here even when that call fails. Concurrent calls (the token listener reacting to the
   * logout's own clearing, say) share one run.
   */
  function disconnect(): Promise<void> {
    return (disconnecting ??= (async () => {
      if (ui.get().session) await deps.logout?.().catch((err: unknown) => console.warn('wallet-kit: the service did not confirm the logout:', err))
      // Tells the host through the owner's 'ended' change (adopt below), once.
      await deps.owner.end()
      ui.set({ external: null })
    })().finally(() => (disconnecting = null)))
  }

  /** The session another tab wrote, or its logout there: taken over, never written back. */
  function adopt(remote: PublicSession | null) {
    const { session, chainId } = ui.get()
    adopted++
    const nextChain = remote && isConfigured(remote.chainId) ? remote.chainId : chainId
    const switched = remote?.address !== session?.address
    ui.set({
      session: remote && { address: remote.address },
      chainId: nextChain,
      ...(remote === null && { external: null }),
      // Another account's permission state is not this one's.
      ...(switched && { account: initialUi.account }),
    })
    if (switched) {
      announced = remote !== null
      if (remote) for (const w of waiting.splice(0)) w.resolve([remote.address])
      deps.host.emit('accountsChanged', remote ? [remote.address] : [])
      if (remote === null) deps.host.emit('disconnect', { code: 4900, message: 'Disconnected' })
      // Requests shown for the previous account must not be signed by this one.
      if (ui.get().view === 'transaction_confirmation') close()
    }
    if (nextChain !== chainId) deps.host.emit('chainChanged', numberToHex(nextChain))
  }

  function requestAccounts(): Promise<readonly string[]> {
    const { session } = ui.get()
    if (session) return Promise.resolve([session.address])
    return new Promise((resolve, reject) => {
      waiting.push({ resolve, reject })
      open('connect')
    })
  }

  const isConfigured = (chainId: number) => deps.chains.some((c) => c.chainId === chainId)
  const chain = (chainId = ui.get().chainId) => deps.chains.find((c) => c.chainId === chainId)

  /** Switches the current chain; 4902 for a chain this app does not configure. */
  async function switchChain(chainId: number) {
    if (!isConfigured(chainId)) throw new Provider.SwitchChainError({ message: `Chain ${chainId} is not configured for this app` })
    if (ui.get().chainId === chainId) return
    await deps.owner.setChain(chainId)
    ui.set({ chainId })
    deps.host.emit('chainChanged', numberToHex(chainId))
  }

  return {
    ui,
    hostOrigin: deps.hostOrigin,
    chains: deps.chains,
    host: deps.host,
    open,
    close,
    hide,
    onClose: (fn: () => void) => onClose.add(fn),
    navigate,
    back,
    loggedIn,
    announce,
    connectedExternally,
    restore,
    disconnect,
    requestAccounts,
    chain,
    switchChain,
    chainId: () => ui.get().chainId,
  }
}

export type Wallet = ReturnType<typeof createWallet>
