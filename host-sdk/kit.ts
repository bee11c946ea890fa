import { ErrorCode, timeouts, type IdentityToken, type WidgetMethods } from '../bridge/index.ts'
import { connectWidget } from './connection.ts'
import { announce, kitInfo } from './eip6963.ts'
import { ProviderRpcError, unwrap } from './errors.ts'
import { createExternal } from './external.ts'
import { mountFrame } from './frame.ts'
import type { WalletKit } from './kit-types.ts'
import { frameUrl, resolveOptions, type WalletKitOptions } from './options.ts'
import { createProvider } from './provider.ts'
import { claim, release } from './registry.ts'
import { watchWallets } from './wallets.ts'

export type { WalletKitOptions } from './options.ts'
export type { KitEvent, WalletKit } from './kit-types.ts'

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
    if (!external.active) return unwrap(await connection.call('request', [request], timeout))
    // Checked here, with the frame's method table and chains: a browser wallet never gets bad params.
    external.check(request, offered)
    if (request.method !== 'wallet_revokePermissions') return external.request(request)
    return kit.disconnect().then(() => null)
  })
  const external = createExternal(emit, () => void connection.call('disconnect', [], timeouts.read))
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
        if (!external.active) emit(event, payload)
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
          if (!external.active) state.accounts = accounts as string[]
        },
        () => {},
      )
      // The chain: noted at the first handshake; a reloaded frame may come back on another one.
      const again = greeted
      greeted = true
      widget('request', { method: 'eth_chainId' }).then(
        (id) => {
          if (external.active) return
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
    disconnect: async () => (external.active ? external.end() : void (await widget('disconnect'))),
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
