// Public API of wallet-kit/sdk. Each create*Client is its own module: import only what a page uses.
export { createClient, type Client, type Services } from './client.ts'
export { SdkError, normalizeError, messages, type SdkErrorCode, type SdkErrorOptions } from './errors.ts'
export {
  hosts,
  defaultEnv,
  resolveBaseUrls,
  environmentHeader,
  resolveContext,
  type Env,
  type BaseUrls,
  type ClientConfig,
  type CallOptions,
  type Context,
  type RampableCredentials,
  createTokenHolder,
  type Tokens,
  type TokenHolder,
} from './config.ts'
export { createContainer, type Container } from './container.ts'
export {
  createAppConfigClient,
  smartAccountContractsOf,
  accountSaltOf,
  type AppConfig,
  type AppConfigClient,
  type ChainConfig,
  type ChainContracts,
  type SmartAccountContracts,
} from './app-config.ts'
export { createChainClient, type ChainClient, type ChainClientOptions, type RpcRequest, type RpcUrlFailure } from './chain.ts'
export { createAuthClient, type AuthClient, type TelegramAuthData } from './wallet/auth.ts'
export {
  createAccountClient,
  type AccountClient,
  type CreateWalletParams,
  type RecoverParams,
  type RampableTokenResult,
} from './wallet/account.ts'
export {
  createWalletClient,
  walletPaths,
  type WalletClient,
  type WalletOperation,
  type WalletParams,
  type WalletResults,
} from './wallet/client.ts'
export type * from './wallet/types.ts'
export {
  createSmartAccountClient,
  kitMarker,
  type SmartAccountClient,
  type UserOpCalls,
} from './smart-account/client.ts'
export type * as SmartAccountTypes from './smart-account/types.ts'
export type { SmartAccount, SmartAccountStatus, Owner } from './smart-account/types.ts'
export { createRampClient, type RampClient, type RampDirectionClient } from './ramp/client.ts'
export type * as RampTypes from './ramp/types.ts'
export type { Quote, RampCrypto, FiatCurrency } from './ramp/types.ts'
export { signSmartAccountRequest, smartAccountBodyHash, type HmacSignInput, type HmacSignature } from './signing/hmac.ts'
export { signRampRequest, rampStringToSign, type RsaSignInput, type RsaSignature } from './signing/rsa.ts'
export {
  verifyIdentityToken,
  type IdentityClaims,
  type IdentitySignInMethod,
  type IdentityTokenPayload,
  type VerifyIdentityTokenOptions,
} from './identity.ts'
