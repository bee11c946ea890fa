import type { ChainConfig, EstimateGasResult, TransactionRequest } from '../../sdk/index.ts'

/**
 * The account the signing handlers act for, whatever holds its key: the embedded wallet today;
 * a WalletConnect wallet and the smart account plug in here as further sources, without any
 * handler changing. Every method acts on `chain`, the active chain (what eth_chainId answers).
 */
export type Account = {
  /** Which kind of account: the embedded wallet; WalletConnect and the smart account come next. */
  readonly source: 'embedded' | 'walletconnect' | 'smart-account'
  readonly address: `0x${string}`
  readonly chain: ChainConfig
  /**
   * The user confirms on the account's own device (a WalletConnect wallet): the frame shows the
   * request and 'Confirm in your wallet', and has no Confirm of its own.
   */
  readonly confirmsOnDevice?: boolean
  /** EIP-191 signature of the exact bytes. */
  signMessage(bytes: `0x${string}`): Promise<`0x${string}`>
  /** EIP-712 signature of the typed data, given as the JSON the dapp sent. */
  signTypedData(json: string): Promise<`0x${string}`>
  /** The fee figures the host left out (the confirmation shows them before anything is signed). */
  estimateGas(tx: Pick<TransactionRequest, 'from' | 'to' | 'data' | 'value'>): Promise<EstimateGasResult>
  sendTransaction(tx: TransactionRequest & { data: string }): Promise<`0x${string}`>
  signTransaction(tx: TransactionRequest & { data: string }): Promise<`0x${string}`>
  /** EIP-5792: whether calls of one batch run atomically. */
  readonly atomic: 'supported' | 'unsupported'
  /** The app's gas tank pays this account's gas (the smart account): the confirmation says so, no fee is shown. */
  readonly sponsored?: boolean
  /** Atomic accounts: runs the calls as one operation; answers its id (for callsStatus). */
  sendCalls?(calls: readonly BatchCall[]): Promise<string>
  callsStatus?(id: string): Promise<CallsStatus>
}

/** One call of an EIP-5792 batch: value in wei (decimal), data hex. */
export type BatchCall = { to: string; value?: string; data?: string }

/** Where a batch run as one operation stands. */
export type CallsStatus = { status: 'built' | 'submitted' | 'included' | 'failed'; txHash?: `0x${string}`; success?: boolean; reason?: string }
