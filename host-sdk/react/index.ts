/** `wallet-kit/react`: React is a peer dependency, never bundled in. */
export { WalletKitProvider, type WalletKitProviderProps } from './WalletKitProvider.tsx'
export { useWalletKit, type UseWalletKit } from './useWalletKit.ts'
export { ConnectButton, type ConnectButtonProps } from './ConnectButton.tsx'
export type { AccountState } from '../account.ts'
export type { WalletKit, WalletKitOptions } from '../kit.ts'
