import { type CallOptions, type ClientConfig, type Context, toContext } from '../config.ts'
import { walletTokenCall } from '../http.ts'
import { logout } from './logout.ts'
import type {
  BalanceResult,
  BatchBalanceResult,
  EstimateGasResult,
  EstimateGasType,
  FeeFields,
  RefreshedTokens,
  SignatureResult,
  TokenArgs,
  TransactionRequest,
  TxResult,
} from './types.ts'

type Network = { network: string }

export type WalletParams = {
  cancelTransaction: Network & { nonce: number }
  balanceCoin: Network
  balanceToken: Network & { tokenAddress: string }
  batchBalanceToken: Network & { tokenAddresses: readonly string[] }
  estimateGas: Network & {
    type: EstimateGasType
    to?: string
    amount?: string | readonly string[]
    tokenId?: string | readonly string[]
    tokenAddress?: string
    transaction?: TransactionRequest
  }
  address: Network
  sendCoin: Network & FeeFields & { to: string; amount: string }
  sendToken: Network & FeeFields & { to: string; amount: string; tokenAddress: string }
  /** stepUpProof: a `send-transaction` step-up proof for this transaction, when the app's threshold asks one. */
  sendTransaction: Network & { transaction: TransactionRequest & { data: string }; stepUpProof?: string }
  signMessage: Network & { message: string }
  signTransaction: Network & { transaction: TransactionRequest; stepUpProof?: string }
  /** data: the EIP-712 JSON as a string. */
  signTypedData: Network & { data: string }
  transferErc721: Network & { to: string; tokenId: string; tokenAddress: string }
  transferErc1155: Network & {
    to: string
    amount: string | readonly string[]
    tokenId: string | readonly string[]
    tokenAddress: string
  }
}

export type WalletResults = {
  cancelTransaction: TxResult
  balanceCoin: BalanceResult
  balanceToken: BalanceResult
  batchBalanceToken: BatchBalanceResult
  estimateGas: EstimateGasResult
  address: { address: string }
  sendCoin: TxResult
  sendToken: TxResult
  sendTransaction: TxResult
  signMessage: SignatureResult
  signTransaction: { signedTransaction: string }
  signTypedData: SignatureResult
  transferErc721: TxResult
  transferErc1155: TxResult
}

export type WalletOperation = keyof WalletParams

export type WalletClient = {
  [op in WalletOperation]: (params: WalletParams[op] & TokenArgs, options?: CallOptions) => Promise<WalletResults[op] & RefreshedTokens>
} & {
  /**
   * Ends the session on the service (POST /wallet/logout): its wallet and refresh tokens are refused
   * from then on. The tokens default to the held ones; the holder forgets a held session even if the
   * call fails. Nothing held and nothing given: resolves without a call.
   */
  logout(params?: TokenArgs, options?: CallOptions): Promise<void>
}

export const walletPaths: { readonly [op in WalletOperation]: string } = {
  cancelTransaction: '/wallet/cancel-transaction',
  balanceCoin: '/wallet/balance-coin',
  balanceToken: '/wallet/balance-token',
  batchBalanceToken: '/wallet/batch-balance-token',
  estimateGas: '/wallet/estimate-gas',
  address: '/wallet/address',
  sendCoin: '/wallet/send-coin',
  sendToken: '/wallet/send-token',
  sendTransaction: '/wallet/send-transaction',
  signMessage: '/wallet/sign-message',
  signTransaction: '/wallet/sign-transaction',
  signTypedData: '/wallet/sign-typed-data',
  transferErc721: '/wallet/transfer-erc721',
  transferErc1155: '/wallet/transfer-erc1155',
}

/** The wallet operations (POST /api/v2/wallet/...), each authorised by the wallet token, and logout. */
export function createWalletClient(config: ClientConfig | Context = {}): WalletClient {
  const ctx = toContext(config)
  const client = {} as Record<WalletOperation | 'logout', unknown>
  for (const op of Object.keys(walletPaths) as WalletOperation[]) {
    client[op] = (params: object, options?: CallOptions) => walletTokenCall(ctx, walletPaths[op], params, options)
  }
  client.logout = (params?: TokenArgs, options?: CallOptions) => logout(ctx, params, options)
  return client as WalletClient
}
