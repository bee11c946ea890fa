/** Wire types of the account-abstraction service (/api/v1). */

export type SmartAccountStatus = 'not_deployed' | 'deploying' | 'deployed'

export type SmartAccount = {
  id: string
  chainId: number
  network: string
  /** The screen shows any other value as 'Unknown'. */
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

/** Gas-tank top-up. */
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
export type HashResult = { hash: string; userOpId?: string; isSponsored?: boolean; chainId?: number; sender?: string; [key: string]: unknown }
export type SignatureResult = { signature: string; [key: string]: unknown }
export type EstimateResult = {
  callGasLimit?: string
  verificationGasLimit?: string
  preVerificationGas?: string
  maxFeePerGas?: string
  maxPriorityFeePerGas?: string
  [key: string]: unknown
}

/** Whether the app's gas tank pays: fixed when the hash is built (the paymaster data is inside it). Defaults to false. */
type OpRef = AccountRef & { isSponsored?: boolean }

/** One call of a batch (signTransaction with `calls`: run atomically as one operation). */
export type AccountCall = { to: string; value?: string; data?: string }

export type UserOpParams = {
  deploy: OpRef
  sendERC721: OpRef & { to: string; tokenAddress: string; tokenId: string }
  /** data defaults to '0x'. */
  sendERC1155: OpRef & { to: string; tokenAddress: string; tokenId: string; amount: string; data?: string }
  sendCoin: OpRef & { to: string; amount: string }
  sendToken: OpRef & { to: string; tokenAddress: string; amount: string }
  /** One call (data defaults to '0x'), or `calls` for a batch. */
  signTransaction: OpRef & ({ to: string; value?: string; data?: string; callData?: string } | { calls: readonly AccountCall[] })
}

export type UserOpKind = keyof UserOpParams

/** `signature`: the owner's EIP-712 signature of `operationTypedData({ chainId, account, userOpHash: hash })` (./operation.ts), never of the bare hash. */
export type SubmitParams = { hash: string; userOpId: string; signature: string; isSponsored?: boolean }
export type SubmitResult = { userOpHash?: string; txHash?: string; [key: string]: unknown }

/** Where a submitted operation stands (`wait`: answer once it is included or failed, up to 20 s). */
export type ReceiptParams = { userOpId: string; wait?: boolean }
export type UserOpStatus = 'built' | 'submitted' | 'included' | 'failed'
export type ReceiptResult = {
  userOpId: string
  userOpHash: string
  status: UserOpStatus
  txHash?: string
  /** Whether the account's call succeeded (an included operation may have reverted inside). */
  success?: boolean
  actualGasCost?: string
  actualGasUsed?: string
  reason?: string
}

/** The app's gas tank on one chain (wei), and the pool address top-ups are sent to. */
export type GasTankParams = { chainId: number }
export type GasTank = { chainId: number; balance: string; pool: string }
