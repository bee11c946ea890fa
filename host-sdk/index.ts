export { createWalletKit, type KitEvent, type WalletKit, type WalletKitOptions } from './kit.ts'
export {
  AtomicityNotSupportedError,
  ChainDisconnectedError,
  DisconnectedError,
  InternalError,
  InvalidParamsError,
  LimitExceededError,
  ProviderRpcError,
  SwitchChainError,
  UnauthorizedError,
  UnknownBundleIdError,
  UnsupportedMethodError,
  UserRejectedRequestError,
  type ProviderErrorClass,
  type ProviderErrorOptions,
} from './errors.ts'
export { currentKit } from './registry.ts'
export type { EIP1193Provider } from './provider.ts'
export type { ProviderDetail, ProviderInfo } from './eip6963.ts'
