import r2wc from '@r2wc/react-to-web-component'
import { createWalletKit, currentKit, type WalletKitOptions } from '../kit.ts'
import { createElementComponent, type ElementProps } from './WalletKitElement.tsx'

const attributes = ['appId', 'env', 'theme', 'locale', 'providerUrl'] as const
const events = ['onConnect', 'onDisconnect', 'onAccountsChanged', 'onChainChanged'] as const

/**
 * Defines <wallet-kit> (attributes app-id, env, theme, locale, provider-url). It uses the page's
 * kit, or creates one from its attributes. DOM events: connect, disconnect, accountschanged,
 * chainchanged; `.provider` is the EIP-1193 provider.
 */
export function defineWalletKitElement(fallbackProviderUrl?: string): void {
  if (typeof customElements === 'undefined' || customElements.get('wallet-kit')) return
  const kitFor = (props: ElementProps) =>
    currentKit() ?? createWalletKit({ ...props, providerUrl: props.providerUrl || undefined } as WalletKitOptions, fallbackProviderUrl)
  const Base = r2wc(createElementComponent(kitFor), {
    shadow: 'open',
    props: attributes as unknown as (keyof ElementProps)[],
    events: Object.fromEntries(events.map((e) => [e, { bubbles: true, composed: true }])),
  })
  customElements.define(
    'wallet-kit',
    class extends (Base as typeof HTMLElement) {
      /** The EIP-1193 provider (creates the kit from the attributes when the page has none yet). */
      get provider() {
        const attr = (name: string) => this.getAttribute(name) ?? undefined
        return kitFor({ appId: attr('app-id'), env: attr('env'), theme: attr('theme'), locale: attr('locale'), providerUrl: attr('provider-url') }).provider
      }
    },
  )
}
