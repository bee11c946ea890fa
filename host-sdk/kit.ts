import { ErrorCode, timeouts, type HostEvent, type IdentityToken, type View, type WidgetMethods } from '../bridge/index.ts'
import { connectWidget, mountFrame } from './connection.ts'
import { announce, kitInfo } from './eip6963.ts'
import { ProviderRpcError } from '../bridge/error-classes.ts'
import type { ConnectAnswer } from '../bridge/methods.ts'
import { createExternal, watchWallets } from './external.ts'
import { frameUrl, resolveOptions, type WalletKitOptions } from './options.ts'
import { createProvider, unwrap, type EIP1193Provider } from './provider.ts'

export type { WalletKitOptions } from './options.ts'

/** Provider events, plus `open` and `close` when the modal shows or hides. */
export type KitEvent = HostEvent | 'open' | 'close'

/** The page's one wallet kit (createWalletKit). */
export type WalletKit = {
  readonly provider: EIP1193Provider
  /** Shows a modal: `connect` when nobody is connected, else `profile`, unless named. */
  open(modal?: View): Promise<void>
  close(): Promise<void>
  /** Ends the session (embedded wallet or browser wallet). */
  disconnect(): Promise<void>
  /**
   * A short-lived JWT (ES256) naming the signed-in user, for your own server: post it there and
   * check it with `verifyIdentityToken` (`wallet-kit/sdk`). `nonce` (8 to 128 visible ASCII
   * characters), when your server gave one, is signed into the token. Rejects with 4100 when nobody
   * is signed in or this page is not connected.
   */
  getIdentityToken(options?: { nonce?: string }): Promise<IdentityToken>
  on(event: KitEvent, listener: (payload: never) => void): void
  off(event: KitEvent, listener: (payload: never) => void): void
  /** Removes the frame and every listener; another kit may be created afterwards. */
  destroy(): void
}

/**
 * One kit per page: a second iframe would hold a second session and announce a second provider.
 * The slot lives on a global symbol so that kit.js and an npm copy of the kit see each other.
 */
const key = Symbol.for('wallet-kit.kit')
type Slot = { [key]?: WalletKit }

export const currentKit = (): WalletKit | undefined => (globalThis as Slot)[key]

/** Throws when the page already has a kit; else takes the slot for `kit` (none: only checks). */
function claim(kit?: WalletKit): void {
  if (currentKit()) throw new Error('A wallet kit already exists on this page: reuse it (WalletKit.kit) or destroy() it first')
  if (kit) (globalThis as Slot)[key] = kit
}

function release(kit: WalletKit): void {
  if (currentKit() === kit) delete (globalThis as Slot)[key]
}

/** Creates the page's one wallet kit: the hidden wallet frame, its EIP-1193 provider and the wallet list. */
export function createWalletKit(options: WalletKitOptions, fallbackProviderUrl?: string): WalletKit {
  const resolved = resolveOptions(options, fallbackProviderUrl)
  if (typeof document === 'undefined') throw new Error('createWalletKit runs in a browser only')
  claim()
  const { providerOrigin: origin, handshakeTimeout } = resolved

  let greeted = false
  const violations: string[] = []
  const onViolation = (e: SecurityPolicyViolationEvent) => e.blockedURI.startsWith(origin) && violations.push(e.effectiveDirective)
  /** A widget call answered with the result, or thrown as a ProviderRpcError. */
  const widget = async <K extends keyof WidgetMethods>(name: K, ...args: Parameters<WidgetMethods[K]>) =>
    unwrap(await connection.call(name, args, timeouts.read))

  /** The chains the frame said at handshake this page is offered: what a browser wallet may be moved to. */
  let offered: readonly number[] = []
  const { provider, emit, state, listeners } = createProvider(resolved.chains, async (request, timeout) => {
    if (!external.wallet) return unwrap(await connection.call('request', [request], timeout))
    // Checked here, with the frame's method table and chains: a browser wallet never gets bad params.
    external.check(request, offered)
    if (request.method !== 'wallet_revokePermissions') return external.request(request)
    return kit.disconnect().then(() => null)
  })
  const external = createExternal(
    emit,
    () => void connection.call('disconnect', [], timeouts.read),
    (params, accounts) => widget('connectAnswer', params, accounts) as Promise<ConnectAnswer>,
  )
  const frame = mountFrame(frameUrl(resolved, location.origin), (visible) => listeners.emit(visible ? 'open' : 'close', null))
  const sendWallets = () => void connection.call('setWallets', [wallets.descriptors()], timeouts.read)
  const wallets = watchWallets(provider, sendWallets)

  const connection = connectWidget({
    frame,
    providerOrigin: origin,
    handshakeTimeout,
    host: {
      setVisible: frame.setVisible,
      emit(event, payload) {
        // While a browser wallet is connected the frame's account events do not apply, except
        // "nobody is connected" (the profile's Disconnect), which ends that connection too.
        if (!external.wallet) emit(event, payload)
        else if (event === 'disconnect' || (event === 'accountsChanged' && !(payload as [])?.length)) external.end()
      },
      connectExternal(walletId) {
        const wallet = wallets.find(walletId)
        if (!wallet) throw new ProviderRpcError(ErrorCode.invalidParams, `No browser wallet "${walletId}" in this page`)
        return external.connect(wallet)
      },
      openUrl(url, target) {
        // Deep links to mobile wallets only work from the top-level page.
        if (target === '_top') location.assign(url)
        else window.open(url, '_blank', 'noopener')
      },
    },
    diagnose: () =>
      violations.length
        ? `This page's Content-Security-Policy blocked the wallet frame (${violations.join(', ')}): add "frame-src ${origin}" to it.`
        : `Check that ${location.origin} is an allowed origin of app "${resolved.appId}" (${resolved.env}) and that this page's Content-Security-Policy allows "frame-src ${origin}".`,
    ready(welcome) {
      offered = Array.isArray(welcome?.chains) ? welcome.chains : []
      sendWallets()
      // Who is connected already (a stored session): what open() shows and what counts as a change.
      widget('request', { method: 'eth_accounts' }).then(
        (accounts) => {
          if (!external.wallet) state.accounts = accounts as string[]
        },
        () => {},
      )
      // The chain: noted at the first handshake; a reloaded frame may come back on another one.
      const again = greeted
      greeted = true
      widget('request', { method: 'eth_chainId' }).then(
        (id) => {
          if (external.wallet) return
          if (again) emit('chainChanged', id)
          else state.chainId = id
        },
        () => {},
      )
    },
  })
  document.addEventListener('securitypolicyviolation', onViolation)
  const unannounce = announce(kitInfo(), provider)

  const kit: WalletKit = {
    provider,
    // The bridge refuses a modal that is not one of bridge/methods.ts `views` (-32602).
    open: (modal) => widget('open', modal ?? (state.accounts.length ? 'profile' : 'connect')) as Promise<never>,
    close: () => widget('close') as Promise<never>,
    disconnect: async () => (external.wallet ? external.end() : void (await widget('disconnect'))),
    // A nonce that is not a string of at most 128 characters never leaves the page; the frame checks
    // the rest (8 to 128 visible ASCII characters) with the provider's rule, also -32602.
    getIdentityToken: async (options) => {
      const nonce = options?.nonce
      if (nonce !== undefined && (typeof nonce !== 'string' || nonce.length > 128)) throw new ProviderRpcError(ErrorCode.invalidParams, 'Invalid nonce')
      return widget('identityToken', nonce) as Promise<IdentityToken>
    },
    on: listeners.on,
    off: listeners.removeListener,
    destroy() {
      external.end()
      unannounce()
      wallets.stop()
      connection.destroy()
      frame.remove()
      document.removeEventListener('securitypolicyviolation', onViolation)
      release(kit)
    },
  }
  claim(kit)
  return kit
}
