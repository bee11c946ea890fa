import { UserRejectedRequestError } from '../bridge/error-classes.ts'
import type { ExternalConnection } from '../bridge/index.ts'
import { sameAddress } from '../bridge/rpc-params.ts'
import { chainHex, type ActiveChain } from './active-chain.ts'
import type { HostPort } from './host-port.ts'
import type { ModalControl } from './modal-control.ts'
import type { PublicSession, SessionOwner } from './session-owner.ts'
import type { Slice } from './store.ts'
import type { SmartAccountUse } from './session.ts'
import { hostAddress } from './accounts/active.ts'
import { initialUi, uiSession, type AccountState, type ConnectionKey, type UiState } from './ui-state.ts'

function parseAccount(value: unknown): AccountState | null {
  if (typeof value !== 'object' || value === null) return null
  const { isPermissionGranted, acceptPermissionPage } = value as Record<string, unknown>
  if (typeof isPermissionGranted !== 'boolean') return null
  return { isPermissionGranted, acceptPermissionPage: typeof acceptPermissionPage === 'string' ? acceptPermissionPage : null }
}

/**
 * Who is connected, as the host sees it: the embedded wallet's session (from the session owner:
 * a login here, another tab, its end) or a browser wallet the host connected; the
 * `eth_requestAccounts` calls waiting for one; the connect and disconnect events the host hears.
 */
export function createConnection(deps: {
  ui: Slice<UiState, ConnectionKey>
  owner: SessionOwner
  host: Pick<HostPort, 'emit'>
  modals: ModalControl
  chain: ActiveChain
  /** This page's origin (Penpal checked it): the host sees the session only once the user connected it. */
  site: string
  /** Revokes the held session on the service (its tokens are refused from then on); may fail, offline say. */
  logout?: (() => Promise<void>) | undefined
}) {
  const { owner, host, modals, chain, site } = deps
  /**
   * The account's permission state (a 407, Setup Permission) is kept across reloads once the stored
   * one has been read (`restore`). This module alone writes it (and the session), so it is saved
   * here as it is written, not by a listener on every change of the frame's state.
   */
  let savedAccount: AccountState | undefined
  const ui: Slice<UiState, ConnectionKey> = {
    ...deps.ui,
    set(update) {
      deps.ui.set(update)
      const { account, session } = deps.ui.get()
      if (savedAccount === undefined || account === savedAccount || !session) return
      savedAccount = account
      void owner.saveAccount(account)
    },
  }
  /** Whether a session of the embedded wallet is connected to this page. */
  const here = (session: PublicSession | null) => !!session?.sites?.includes(site)
  const waiting: { resolve(a: readonly string[]): void; reject(e: Error): void }[] = []
  let announced = false
  let adopted = 0

  /**
   * Closing the modal answers what waits on it here: a login not yet announced to the host (closing
   * the wallet-created page without Done still leaves the new user logged in), and the waiting
   * eth_requestAccounts calls. It is listened for only while one of them is pending: a close with
   * neither (a signature's modal, say) has nothing to do here.
   */
  let stopWatchingClose: (() => void) | null = null
  const watchClose = () => {
    stopWatchingClose ??= modals.onClose(() => {
      const { session, connected } = ui.get()
      if (session && connected && !announced) announce(session)
      for (const w of waiting.splice(0)) w.reject(new UserRejectedRequestError({ message: 'User closed the modal' }))
      if (!announced) return
      stopWatchingClose?.()
      stopWatchingClose = null
    })
  }
  /** Every change of `announced` goes through here: a login left unannounced waits for the modal's close. */
  const setAnnounced = (value: boolean) => {
    announced = value
    if (!value) watchClose()
  }
  watchClose()

  owner.subscribe(({ session, source }) => {
    if (source === 'login') {
      setAnnounced(false)
      // Signing in from this page connects it.
      if (session) void owner.setSite(site, true)
      ui.set({ session: session && uiSession(session), connected: !!session, external: null, account: initialUi.account })
    } else if (source === 'remote') adopt(session)
    else ended()
  })

  /** Tells the host and every waiting `eth_requestAccounts` that an account is connected. */
  function announce(session: { address: `0x${string}`; smartAccount?: SmartAccountUse }, chainId = ui.get().chainId) {
    setAnnounced(true)
    const accounts = [hostAddress(session)]
    for (const w of waiting.splice(0)) w.resolve(accounts)
    host.emit('connect', { chainId: chainHex(chainId) })
    host.emit('accountsChanged', accounts)
  }

  /** The session ended here (a logout, a refresh the service refused): a request on screen shows its error. */
  function ended() {
    const { session: had, connected } = ui.get()
    adopted++
    ui.set({ session: null, connected: false, external: null })
    modals.sessionEnded()
    // A page the user never connected is not told about a session it never saw.
    if (!had || !connected) return
    host.emit('accountsChanged', [])
    host.emit('disconnect', { code: 4900, message: 'Disconnected' })
  }

  /** The session another tab wrote, or its logout there: taken over, never written back. */
  function adopt(remote: PublicSession | null) {
    const { session, chainId, connected, view } = ui.get()
    adopted++
    const nextChain = remote && chain.isConfigured(remote.chainId) ? remote.chainId : chainId
    const switched = remote?.address !== session?.address
    // What the host sees, before and now: the same owner may have turned its smart account on or off
    // in that tab, or connected this page (or forgotten it) in a tab of this origin.
    const seen = session && connected ? hostAddress(session) : undefined
    const now = remote && here(remote) ? hostAddress(remote) : undefined
    if (nextChain !== chainId) chain.take(nextChain)
    ui.set({
      session: remote && uiSession(remote),
      connected: !!now,
      ...(remote === null && { external: null }),
      // Another account's permission state is not this one's.
      ...(switched && { account: initialUi.account }),
    })
    if (switched || seen !== now) {
      setAnnounced(!!now)
      if (now) for (const w of waiting.splice(0)) w.resolve([now])
      if (seen !== now) host.emit('accountsChanged', now ? [now] : [])
      if (remote === null && seen) host.emit('disconnect', { code: 4900, message: 'Disconnected' })
      // Requests shown for the previous account must not be signed by this one.
      if (view === 'transaction_confirmation') modals.close()
      // Connected in another tab while this one asked: nothing left to ask here.
      else if (now && !seen && view === 'connect' && !switched) modals.close()
    }
    if (nextChain !== chainId) host.emit('chainChanged', chainHex(nextChain))
  }

  let disconnecting: Promise<void> | null = null
  /** The WalletConnect connection (walletconnect/connector.ts), once the frame has one. */
  let walletConnect: { disconnect(): Promise<void> } | null = null

  return {
    announce,
    /** The login written by the sdk has been stored: the account to announce (after the post-login delay). */
    async loggedIn(): Promise<{ address: `0x${string}` }> {
      await owner.settled()
      const { session } = ui.get()
      if (!session) throw new Error('The login left no session')
      return session
    },
    /** The host connected an injected wallet in the top frame: it answers from now on. */
    connectedExternally(walletId: string, connection: ExternalConnection) {
      ui.set({ external: { walletId, address: connection.accounts[0] as `0x${string}` } })
      for (const w of waiting.splice(0)) w.resolve(connection.accounts)
    },
    setWalletConnect(connection: { disconnect(): Promise<void> }) {
      walletConnect = connection
    },
    /** A WalletConnect wallet approved, was restored, or changed its account: it answers from now on. */
    connectedRemotely(account: { address: `0x${string}`; peer: string }) {
      const before = ui.get().session
      ui.set({
        session: { address: account.address, walletConnect: { peer: account.peer } },
        connected: true,
        external: null,
        account: initialUi.account,
      })
      if (!before || !announced) return announce(account)
      if (!sameAddress(before.address, account.address)) host.emit('accountsChanged', [account.address])
    },
    /** The WalletConnect wallet ended the session (or the frame did): the host hears it. */
    remoteEnded() {
      if (ui.get().session?.walletConnect) ended()
    },
    /** The stored session and account state, read once at start. */
    async restore() {
      const seen = adopted
      const session = await owner.restore()
      const account = session ? parseAccount(await owner.loadAccount()) : null
      // Another tab's newer session arrived meanwhile: it wins over what was read.
      if (adopted === seen) {
        setAnnounced(here(session))
        chain.take(session && chain.isConfigured(session.chainId) ? session.chainId : chain.defaultChainId)
        ui.set({
          session: session && uiSession(session),
          connected: announced,
          ...(account && { account }),
        })
      }
      // From here on, whatever changes the account state is kept across reloads (`ui.set` above).
      savedAccount = ui.get().account
    },
    /**
     * Ends the session: revoked on the service first (a copy of its tokens is then worthless), then
     * cleared here even when that call fails. Concurrent calls share one run; the host hears it once.
     */
    disconnect(options?: { host: true }): Promise<void> {
      const { session, connected } = ui.get()
      // A page the user never connected cannot log the user out of the sites that are.
      if (options?.host && session && !connected) return Promise.resolve(ui.set({ external: null }))
      disconnecting ??= (async () => {
        if (ui.get().session?.walletConnect) return walletConnect?.disconnect()
        if (ui.get().session) await deps.logout?.().catch((err: unknown) => console.warn('wallet-kit: the service did not confirm the logout:', err))
        await owner.end()
        ui.set({ external: null })
      })().finally(() => {
        disconnecting = null
      })
      return disconnecting
    },
    /**
     * Connects this page to the embedded wallet's session, or forgets it: at once here, then stored
     * and told to the other tabs. What the host hears is site.ts's (loaded with the prompt or the revoke).
     */
    setSite(connected: boolean): Promise<void> {
      ui.set({ connected })
      return owner.setSite(site, connected)
    },
    /**
     * The embedded wallet's smart account becomes the account the host sees (null: the wallet
     * itself again): stored with the session, told to the host and the other tabs. A request shown
     * for the account before is closed (it must not be signed by the other one).
     */
    async showSmartAccount(use: SmartAccountUse | null): Promise<void> {
      const session = ui.get().session
      if (!session || session.walletConnect) throw new Error('Only the embedded wallet has a smart account')
      const before = hostAddress(session)
      await owner.setSmartAccount(use)
      const { smartAccount: _, ...rest } = session
      const next = use ? { ...rest, smartAccount: use } : rest
      ui.set({ session: next })
      if (hostAddress(next) !== before) {
        if (ui.get().connected) host.emit('accountsChanged', [hostAddress(next)])
        if (ui.get().view === 'transaction_confirmation') modals.close()
      }
    },
    /** The wallet may not sign yet (a 407): the need-permission modal shows `page`, where it is granted. */
    requirePermission(page: string | null) {
      ui.set({ account: { isPermissionGranted: false, acceptPermissionPage: page } })
    },
    /** The user went to grant permission: assumed granted; a new 407 asks again. */
    assumePermissionGranted() {
      ui.set((s) => ({ account: { ...s.account, isPermissionGranted: true } }))
    },
    requestAccounts(): Promise<readonly string[]> {
      const { session, connected } = ui.get()
      if (session && connected) return Promise.resolve([hostAddress(session)])
      // Nobody signed in: the login; signed in but this page not connected: 'Connect to <origin>?'.
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject })
        watchClose()
        modals.open('connect')
      })
    },
  }
}
