/** Wire types of the wallet service (/api/v2), as the service and the sandbox's stand-in answer them. */

export type NetworkAddress = { network: string; address: string }

/** Tokens a caller may pass to any wallet operation instead of the ones the holder keeps. */
export type TokenArgs = {
  walletToken?: string
  /** When given, the token pair is refreshed after the call and the new pair comes back with the result. */
  refreshToken?: string
}

/** The new pair, present on a result when a refresh token was supplied or a 401 forced a refresh. */
export type RefreshedTokens = { walletToken?: string; refreshToken?: string }

export type TokenPair = { walletToken: string; refreshToken: string }

export type LoginResult = {
  isWalletCreated: boolean
  refreshToken: string
  /** Present when the user has a wallet. */
  walletToken?: string
  /** Present when the user has no wallet yet: pass it to account.create. */
  accessToken?: string
  rampableAccessToken?: string
  addresses?: NetworkAddress[]
}

export type WalletCreationResult = {
  walletToken: string
  refreshToken: string
  /** The recovery secret, shown to the user once. */
  secret0: string
  address: NetworkAddress[]
}

export type VerificationTokenResult = { verificationToken: string }

export type OrganizationInfo = {
  isRampableEnabled: boolean
  rampableClientSecret: string | null
  [key: string]: unknown
}

export type TxReceipt = {
  hash: string
  from?: string
  to?: string | null
  nonce?: number
  chainId?: number
  [key: string]: unknown
}

export type TxResult = { txReceipt: TxReceipt }
export type SignatureResult = { signature: string }

/** Optional fee fields shared by the sending calls. */
export type FeeFields = {
  nonce?: number
  gasPrice?: string
  gasLimit?: string
  maxPriorityFeePerGas?: string
}

export type TransactionRequest = {
  from: string
  to: string
  value?: string
  data?: string
  nonce?: number
  gasPrice?: string
  gasLimit?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
}

export type EstimateGasType = 'send-coin' | 'send-token' | 'transfer-erc721' | 'transfer-erc1155' | 'custom'

export type EstimateGasResult = {
  gasLimit: string
  gasPrice?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
}

export type BalanceResult = { balance: string; symbol: string; address: string }
export type BatchBalanceResult = {
  address: string
  tokens: { balance: string; symbol: string; decimals: number; [key: string]: unknown }[]
}
