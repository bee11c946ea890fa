export { createWalletKit, currentKit, type KitEvent, type WalletKit, type WalletKitOptions } from './kit.ts'
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
} from '../bridge/error-classes.ts'
export type { EIP1193Provider } from './provider.ts'
export type { ProviderDetail, ProviderInfo } from './eip6963.ts'
