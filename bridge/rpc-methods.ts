import type * as RpcSchema from 'ox/RpcSchema'
import { ErrorCode } from './error-classes.ts'
import type { RpcRequest } from './methods.ts'
import {
  address,
  anything,
  calls,
  chain,
  chainIds,
  object,
  isRecord,
  positional,
  Refusal,
  text,
  transaction,
  typedData,
  type Address,
  type Param,
  type Quantity,
} from './rpc-params.ts'

/**
 * The method table both sides read: every RPC method the kit answers, with its kind, its params
 * (checked and typed: rpc-params.ts) and, as a type, its result. The host uses it for 4200, the
 * timeout, and to check a request before a browser wallet gets it; the wallet frame parses each
 * request with it before a handler runs (handlers receive the typed params) and has one handler
 * per method it answers (tsc checks that: `FrameMethod`); the sandbox's /rpc proxy forwards the
 * reads only (`isRpcRead`).
 */
export type Kind = 'read' | 'sign' | 'connect' | 'chain' | 'permission'

/**
 * How long a call of each kind may take over the bridge: reads are short, signing and switching
 * chains wait for a person, connecting and granting permissions have no limit while the modal is
 * open. A Record over every kind, so a new kind without a timeout does not compile.
 */
export const timeouts: { readonly [kind in Kind]: number | undefined } = {
  read: 30_000,
  sign: 600_000,
  chain: 600_000,
  connect: undefined,
  permission: undefined,
}

/** One method: its kind and its params reader (the typed params it yields). */
export type MethodSchema<P = unknown> = { readonly kind: Kind; readonly params: Param<P> }
const schema = <P>(kind: Kind, params: Param<P>): MethodSchema<P> => ({ kind, params })

const none = positional([])
/** eth_call, eth_estimateGas: a transaction, then a block tag or number and state overrides that the chain's RPC judges. */
const call = schema('read', positional([transaction], [anything, anything]))
/** Reads about one address, at a block the chain's RPC judges. */
const ofAddress = schema('read', positional([address], [anything]))
const sendTransaction = schema('sign', positional([transaction]))
const switchChain = schema('chain', positional([chain]))
const callsId = schema('read', positional([text]))

/** The methods the wallet frame answers itself (widget/rpc/index.ts has a handler for each). */
const answered = {
  eth_requestAccounts: schema('connect', none),
  eth_accounts: schema('read', none),
  eth_chainId: schema('read', none),
  net_version: schema('read', none),
  wallet_switchEthereumChain: switchChain,
  wallet_addEthereumChain: switchChain,
  // web3.js adds a password
  personal_sign: schema('sign', positional([text, address], [anything])),
  eth_signTypedData_v4: schema('sign', positional([address, typedData])),
  eth_sendTransaction: sendTransaction,
  eth_signTransaction: sendTransaction,
  wallet_getCapabilities: schema('read', positional([], [address, chainIds])),
  wallet_sendCalls: schema('sign', positional([calls])),
  wallet_getCallsStatus: callsId,
  wallet_showCallsStatus: callsId,
  wallet_requestPermissions: schema('permission', positional([object])),
  // Reads: they answer at once, revoking only forgets the app's grant.
  wallet_getPermissions: schema('read', none),
  wallet_revokePermissions: schema('read', positional([object])),
  // The embedded wallet's own estimate comes from the wallet service; any other is a chain read.
  eth_estimateGas: call,
  // ERC-7846: connecting, and with signInWithEthereum a sign-in message signed in the same step. Its
  // capabilities are read in the frame, which alone answers it (sign-in-params.ts): the
  // host's bundle has no room for that reader, and a browser wallet judges its own.
  wallet_connect: schema('connect', positional([], [object])),
  // Forgets this site, as revoking eth_accounts does.
  wallet_disconnect: schema('read', none),
}

/** A method the wallet frame must have a handler for; any other is a read the chain's RPC answers. */
export type FrameMethod = keyof typeof answered

/** The typed params a frame method's handler receives. */
export type ParamsOf<M extends FrameMethod> = (typeof answered)[M] extends MethodSchema<infer P> ? P : never

type Permission = { parentCapability: string; invoker: string; caveats: { type: string; value: unknown }[] }
type Receipt = { logs: unknown[]; status: string; blockHash: string; blockNumber: string; gasUsed: string; transactionHash: string }
type CallsStatus = { version: string; id: string; chainId: Quantity; atomic: boolean; status: number; receipts: Receipt[] }

/** What each frame method answers (signatures, hashes and accounts as the wallet service gives them: 0x strings). */
export type ResultOf = {
  eth_requestAccounts: readonly string[]
  eth_accounts: readonly Address[]
  eth_chainId: Quantity
  net_version: string
  wallet_switchEthereumChain: null
  wallet_addEthereumChain: null
  personal_sign: string
  eth_signTypedData_v4: string
  eth_sendTransaction: string
  eth_signTransaction: string
  wallet_getCapabilities: Record<Quantity, Record<string, unknown>>
  wallet_sendCalls: { id: string }
  wallet_getCallsStatus: CallsStatus
  wallet_showCallsStatus: null
  wallet_requestPermissions: readonly Permission[]
  wallet_getPermissions: readonly Permission[]
  wallet_revokePermissions: null
  eth_estimateGas: Quantity
  wallet_connect: { accounts: readonly { address: string; capabilities: { signInWithEthereum?: { message: string; signature: string } } }[] }
  wallet_disconnect: null
}

/** The frame's methods as an ox RPC schema (`RpcSchema.Generic` items: Request and ReturnType). */
export type WalletRpcSchema = { [M in FrameMethod]: { Request: { method: M; params: ParamsOf<M> }; ReturnType: ResultOf[M] } }[FrameMethod]
type Is<T extends true> = T
type _IsRpcSchema = Is<WalletRpcSchema extends RpcSchema.Generic ? true : false>

/** The frame's methods, and the reads whose params are checked before the chain's RPC gets them. */
const schemas: Readonly<Record<string, MethodSchema>> = {
  ...answered,
  eth_call: call,
  eth_getBalance: ofAddress,
  eth_getCode: ofAddress,
  eth_getTransactionCount: ofAddress,
}
/** Any other read: up to ten params the chain's RPC judges (block tags and numbers, filters). */
const otherRead = schema('read', positional([], Array<Param<unknown>>(10).fill(anything)))

/**
 * The read-only JSON-RPC methods a chain's RPC may answer for a page. A method not on it is not a
 * read, whatever its prefix: `eth_sendUnsignedTransaction` (anvil runs it for any `from`: forwarding
 * it spends any wallet), `eth_sendTransactionSync`, `anvil_*`, `evm_*`, `hardhat_*`, `debug_*`,
 * `personal_*`, `txpool_*` and `eth_sign` are refused everywhere. The uncle methods are left out:
 * chains have had no uncles since the Merge. One space-separated string: the host ships it.
 */
const eth =
  'blobBaseFee blockNumber call chainId createAccessList estimateGas feeHistory gasPrice getBalance getBlockByHash ' +
  'getBlockByNumber getBlockReceipts getBlockTransactionCountByHash getBlockTransactionCountByNumber getCode ' +
  'getFilterChanges getFilterLogs getLogs getProof getStorageAt getTransactionByBlockHashAndIndex ' +
  'getTransactionByBlockNumberAndIndex getTransactionByHash getTransactionCount getTransactionReceipt ' +
  'maxPriorityFeePerGas newBlockFilter newFilter newPendingTransactionFilter syncing uninstallFilter'

export const rpcReads: ReadonlySet<string> = new Set([...eth.split(' ').map((name) => `eth_${name}`), 'net_listening', 'net_version', 'web3_clientVersion'])

/** Whether `method` is on the read allowlist above. */
export const isRpcRead = (method: string): boolean => rpcReads.has(method)

/**
 * A method's schema and kind, or undefined when the provider does not support it (4200). Another
 * method than the table's is sent only when it is on the read allowlist above: the chain's RPC
 * judges its params. eth_sign (blind hashes), eth_subscribe and anything that would change a
 * node's state are not reads.
 */
export function methodOf(method: string): readonly [MethodSchema, Kind] | undefined {
  const found = Object.hasOwn(schemas, method) ? schemas[method] : isRpcRead(method) ? otherRead : undefined
  return found && [found, found.kind]
}

/** The reason `params` do not fit a method's schema, or undefined. */
export function checkParams(method: MethodSchema, params?: unknown): string | undefined {
  try {
    method.params(params)
  } catch (err) {
    if (err instanceof Refusal) return err.reason
    throw err
  }
  return undefined
}

/** The shape of an EIP-1193 request, before its method is looked up: the reason it is not one, or undefined. */
export function checkRpcRequest(value: unknown): string | undefined {
  if (!isRecord(value)) return 'request must be an object'
  const { method, params } = value
  if (typeof method !== 'string' || method.length === 0 || method.length > 128) return 'method must be a non-empty string'
  if (params !== undefined && !Array.isArray(params) && !isRecord(params)) return 'params must be an array or an object'
  return undefined
}

/** A request read against the table: a frame method with its typed params, or a read for the chain's RPC. */
export type ParsedRequest =
  | { [M in FrameMethod]: { readonly method: M; readonly kind: Kind; readonly params: ParamsOf<M> } }[FrameMethod]
  | { readonly method: string; readonly kind: 'read'; readonly params: readonly unknown[] }

/**
 * Parses a request once: a method outside the table is 4200, params that do not fit -32602, each
 * built by `error` (the frame's ox errors, the host's own small class); else the typed request.
 */
export function parseRequest<E>({ method, params }: RpcRequest, error: (code: number, message: string) => E): ParsedRequest {
  const known = methodOf(method)
  if (!known) throw error(ErrorCode.unsupportedMethod, `Unsupported method: ${method}`)
  try {
    return { method, kind: known[1], params: known[0].params(params) } as ParsedRequest
  } catch (err) {
    throw err instanceof Refusal ? error(ErrorCode.invalidParams, `Invalid params for ${method}: ${err.reason}`) : err
  }
}
