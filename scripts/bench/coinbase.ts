// Size benchmark only: what a host imports to get Coinbase Wallet's EIP-1193 provider.
export { createCoinbaseWalletSDK } from '@coinbase/wallet-sdk'
