import type { WalletDescriptor } from '../bridge/index.ts'
import { discover, svgIcon, type ProviderDetail } from './eip6963.ts'
import type { EIP1193Provider } from './provider.ts'

/**
 * Browser wallets inject into the host page, never into the cross-origin wallet frame, so the
 * host finds them (EIP-6963, else a legacy window.ethereum) and tells the widget what it found.
 */
export type Wallets = {
  /** What the widget's wallet list shows. */
  descriptors(): WalletDescriptor[]
  find(id: string): ProviderDetail | undefined
  stop(): void
}

const genericIcon = svgIcon('5f6675')

const idOf = ({ info }: ProviderDetail) => info.rdns || info.uuid

/** A legacy injected provider, used only when nothing announces itself. */
function legacy(own: EIP1193Provider): ProviderDetail | undefined {
  const ethereum = (window as { ethereum?: EIP1193Provider }).ethereum
  if (typeof ethereum?.request !== 'function' || ethereum === own) return undefined
  return { info: { uuid: 'injected', name: 'Browser Wallet', icon: genericIcon, rdns: 'injected' }, provider: ethereum }
}

export function watchWallets(own: EIP1193Provider, changed: () => void): Wallets {
  const found = new Map<string, ProviderDetail>()
  // Wallets already in the page answer discover() at once, before the caller holds the result:
  // those are the first list it reads itself, so only later arrivals report a change.
  let started = false
  const stop = discover((detail) => {
    if (detail.provider === own || found.get(idOf(detail))?.provider === detail.provider) return
    found.set(idOf(detail), detail)
    if (started) changed()
  })
  started = true
  const all = () => {
    if (found.size > 0) return [...found.values()]
    const fallback = legacy(own)
    return fallback ? [fallback] : []
  }
  return {
    descriptors: () =>
      all().map((detail) => {
        const { name, icon, rdns } = detail.info
        return {
          id: idOf(detail),
          name: name.slice(0, 100) || 'Wallet',
          // EIP-6963 icons are data URIs, and the frame's CSP loads no image from other servers.
          icon: /^data:image\//.test(icon) && icon.length <= 100_000 ? icon : genericIcon,
          connector: 'injected',
          installed: true,
          rdns: typeof rdns === 'string' ? rdns : undefined,
        }
      }),
    find: (id) => all().find((detail) => idOf(detail) === id),
    stop,
  }
}
