import { createWalletKit, type WalletKit, type WalletKitOptions } from './kit.ts'

/**
 * The script-tag bundle (/kit.js): defines `window.WalletKit`. With `data-app-id` on the tag the kit
 * is created at once and kept as `WalletKit.kit`. The provider URL defaults to the script's origin.
 */
declare global {
  interface Window {
    WalletKit?: { createWalletKit(options: WalletKitOptions): WalletKit; kit?: WalletKit }
  }
}

const script = document.currentScript as HTMLScriptElement | null
const scriptOrigin = script?.src ? new URL(script.src).origin : undefined

const api: NonNullable<Window['WalletKit']> = {
  createWalletKit: (options) => createWalletKit({ providerUrl: scriptOrigin, ...options }),
}
window.WalletKit = api

const appId = script?.dataset.appId
if (appId) {
  const env = script?.dataset.env === 'production' ? 'production' : 'sandbox'
  api.kit = api.createWalletKit({ appId, env })
}
