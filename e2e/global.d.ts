import type { WalletKit, WalletKitOptions } from '../host-sdk/index.ts'

declare global {
  interface Window {
    WalletKit?: { createWalletKit(options: WalletKitOptions): WalletKit; kit?: WalletKit }
  }
}
