import type { EIP1193Provider } from './provider.ts'

/** EIP-6963: wallets announce themselves with window events instead of racing for window.ethereum. */
export type ProviderInfo = { readonly uuid: string; readonly name: string; readonly icon: string; readonly rdns: string }
export type ProviderDetail = { readonly info: ProviderInfo; readonly provider: EIP1193Provider }

const announceEvent = 'eip6963:announceProvider'
const requestEvent = 'eip6963:requestProvider'

/** Data URIs only need `#` escaped; browsers accept the rest of the SVG as is. */
export const svgIcon = (fill: string) =>
  `data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'><rect width='32' height='32' rx='8' fill='%23${fill}'/><path d='M8 11h16v11H8z' fill='%23fff'/></svg>`

/** A v4 UUID. Not crypto.randomUUID: plain-http hosts (not a secure context) lack it. */
const uuid = () =>
  '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (c) => (+c ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (+c / 4)))).toString(16))

export const kitInfo = (): ProviderInfo => ({ uuid: uuid(), name: 'Wallet Kit', icon: svgIcon('7c5cff'), rdns: 'dev.walletkit' })

/** Announces `provider` now and whenever a dapp asks; returns the way to stop. */
export function announce(info: ProviderInfo, provider: EIP1193Provider): () => void {
  const detail = Object.freeze({ info, provider })
  const send = () => window.dispatchEvent(new CustomEvent(announceEvent, { detail }))
  window.addEventListener(requestEvent, send)
  send()
  return () => window.removeEventListener(requestEvent, send)
}

/** Listens for wallets announcing themselves and asks the ones already there; returns the way to stop. */
export function discover(found: (detail: ProviderDetail) => void): () => void {
  const listener = (event: Event) => {
    const detail = (event as CustomEvent).detail as Partial<ProviderDetail> | undefined
    const info = detail?.info
    if (typeof detail?.provider?.request !== 'function' || typeof info?.uuid !== 'string' || typeof info.name !== 'string') return
    found(detail as ProviderDetail)
  }
  window.addEventListener(announceEvent, listener)
  window.dispatchEvent(new Event(requestEvent))
  return () => window.removeEventListener(announceEvent, listener)
}
