export { createWalletKit, type WalletKit, type WalletKitOptions } from './kit.ts'
export type { EIP1193Provider } from './provider.ts'
