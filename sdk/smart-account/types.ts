/** Wire types of the account-abstraction service (/api/v1), from SPEC.md section 3. */

export type SmartAccountStatus = 'not_deployed' | 'deploying' | 'deployed'

export type SmartAccount = {
  id: string
  chainId: number
  network: string
  /** Any other value is shown as 'Unknown' (SPEC.md section 4). */
  status: SmartAccountStatus | (string & {})
  aaAddress: string
}

export type Owner = { id: string; provider: string }

export type CreateSmartAccountParams = { owner: Owner; chainId?: number; network?: string }
export type SmartAccountList = { accounts: SmartAccount[]; [key: string]: unknown }

export type AccountRef = { accountId: string }

export type NativeBalanceParams = AccountRef
export type TokenBalanceParams = AccountRef & { tokenAddress: string }
export type TokenBatchBalanceParams = AccountRef & { tokenAddresses: readonly string[] }
export type SmartBalance = { balance: string; symbol?: string; decimals?: number; [key: string]: unknown }
export type SmartBatchBalance = { tokens: (SmartBalance & { tokenAddress: string })[]; [key: string]: unknown }

/** Gas-tank top-up (SPEC.md section 3). */
export type TopUpParams = {
  txHash: string
  chainId: number
  receiverOwnerId: string
  tokenAddress: string
  poolAddress: string
  immediate: boolean
  signature: string
}

export type SignMessageHashParams = AccountRef & { message: string }
export type SignTypedDataHashParams = AccountRef & { typedData: unknown }
export type BuildSignatureParams = AccountRef & { signature: string; hash?: string }

/** What a /hash call answers: the hash the owner signs and the user operation it belongs to. */
export type HashResult = { hash: string; userOpId?: string; [key: string]: unknown }
export type SignatureResult = { signature: string; [key: string]: unknown }
export type EstimateResult = {
  callGasLimit?: string
  verificationGasLimit?: string
  preVerificationGas?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  [key: string]: unknown
}

export type UserOpParams = {
  deploy: AccountRef
  sendERC721: AccountRef & { to: string; tokenAddress: string; tokenId: string }
  /** data defaults to '0x'. */
  sendERC1155: AccountRef & { to: string; tokenAddress: string; tokenId: string; amount: string; data?: string }
  sendCoin: AccountRef & { to: string; amount: string }
  sendToken: AccountRef & { to: string; tokenAddress: string; amount: string }
  /** data defaults to '0x'. */
  signTransaction: AccountRef & { to: string; value?: string; data?: string; callData?: string }
}

export type UserOpKind = keyof UserOpParams

export type SubmitParams = { hash: string; userOpId: string; signature: string; isSponsored?: boolean }
export type SubmitResult = { userOpHash?: string; txHash?: string; [key: string]: unknown }
