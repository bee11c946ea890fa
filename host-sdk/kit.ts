import { views, type HostEvent, type View } from '../bridge/index.ts'
import { connectWidget } from './connection.ts'
import { unwrap } from './errors.ts'
import { mountFrame } from './frame.ts'
import { createProvider, type EIP1193Provider } from './provider.ts'

export type WalletKitOptions = {
  appId: string
  env?: 'sandbox' | 'production'
  /** Origin of the provider (serves the widget and the services). */
  providerUrl?: string
  /** How long to wait for the wallet frame to answer, in ms. */
  handshakeTimeout?: number
}

export type WalletKit = {
  readonly provider: EIP1193Provider
  open(view?: View): Promise<void>
  close(): Promise<void>
  destroy(): void
}

export const defaultProviderUrl = 'http://localhost:8787'

export function createWalletKit(options: WalletKitOptions): WalletKit {
  if (!options || typeof options.appId !== 'string' || options.appId.length === 0) throw new Error('appId is required')
  if (typeof document === 'undefined') throw new Error('createWalletKit needs a browser document (call it on the client)')
  const env = options.env ?? 'sandbox'
  const providerOrigin = new URL(options.providerUrl ?? defaultProviderUrl).origin
  const src = new URL('/widget/', providerOrigin)
  src.searchParams.set('appId', options.appId)
  src.searchParams.set('env', env)
  src.searchParams.set('origin', location.origin)

  const violations: string[] = []
  const onViolation = (e: SecurityPolicyViolationEvent) => {
    if (e.blockedURI.startsWith(providerOrigin)) violations.push(e.effectiveDirective)
  }
  document.addEventListener('securitypolicyviolation', onViolation)

  const frame = mountFrame(src.href)
  let emit: (event: HostEvent, payload: unknown) => void = () => {}
  const connection = connectWidget({
    frame,
    providerOrigin,
    handshakeTimeout: options.handshakeTimeout ?? 15_000,
    host: {
      setVisible: (visible) => frame.setVisible(visible),
      emit: (event, payload) => emit(event, payload),
      connectExternal: () => {
        throw { code: 4200, message: 'External wallets are not available in this page' }
      },
      openUrl: (url, target) => {
        if (target === '_top') location.assign(url)
        else window.open(url, '_blank', 'noopener')
      },
    },
    diagnose: () =>
      violations.length > 0
        ? `This page's Content-Security-Policy blocked the wallet frame (${violations.join(', ')}): add "frame-src ${providerOrigin}" to it.`
        : `Check that ${location.origin} is an allowed origin of app "${options.appId}" (${env}) and that the page's Content-Security-Policy allows "frame-src ${providerOrigin}".`,
  })
  const { provider, events } = createProvider(connection)
  emit = events.emit

  return {
    provider,
    async open(view = 'connect') {
      if (!views.includes(view)) throw new Error(`Unknown modal: ${String(view)}`)
      unwrap(await connection.call('open', [view]))
    },
    async close() {
      unwrap(await connection.call('close', []))
    },
    destroy() {
      connection.destroy()
      frame.remove()
      document.removeEventListener('securitypolicyviolation', onViolation)
    },
  }
}
