import { defineWalletKitElement } from './element/define.ts'
import { createWalletKit, currentKit, type WalletKit, type WalletKitOptions } from './kit.ts'

/**
 * The script-tag bundle (/kit.js): defines `window.WalletKit` and the <wallet-kit> element. With
 * `data-app-id` on the tag the kit is created at once (`WalletKit.kit`). The provider URL defaults
 * to the script's origin.
 */
declare global {
  interface Window {
    WalletKit?: { createWalletKit(options: WalletKitOptions): WalletKit; kit?: WalletKit }
  }
}

const script = document.currentScript as HTMLScriptElement | null
const providerUrl = script?.src ? new URL(script.src).origin : undefined

window.WalletKit = {
  createWalletKit: (options) => createWalletKit(options, providerUrl),
  get kit() {
    return currentKit()
  },
}
defineWalletKitElement(providerUrl)

const { appId, env, theme, locale, chains, mode } = script?.dataset ?? {}
if (appId) createWalletKit({ appId, env, theme, locale, mode, chains: chains?.split(',').map(Number) } as WalletKitOptions, providerUrl)
