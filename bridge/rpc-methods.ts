import { isRecord } from './validate.ts'

/**
 * The method registry both sides use: every RPC method the kit answers, with its kind and params
 * signature. The host uses it for 4200 and the timeout; the wallet frame checks the params (-32602)
 * before any handler runs, and has one handler per method it answers (tsc checks that:
 * `FrameMethod`); the sandbox's /rpc proxy forwards the reads only.
 *
 * A signature starts with its kind when not a read (`!` sign, `@` connect, `#` chain, `&`
 * permission), then has one letter per positional param; those after `?` are optional:
 * a address · s string · t transaction · c {chainId} · d EIP-712 typed data ·
 * k EIP-5792 calls object · p EIP-2255 permissions object ·
 * * anything (block tags and numbers too: the chain's RPC judges them).
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

/** The methods the wallet frame answers itself (widget/rpc/index.ts has a handler for each). */
const answered = {
  eth_requestAccounts: '@',
  eth_accounts: '',
  eth_chainId: '',
  net_version: '',
  wallet_switchEthereumChain: '#c',
  wallet_addEthereumChain: '#c',
  personal_sign: '!sa?*', // web3.js adds a password
  eth_signTypedData_v4: '!ad',
  eth_sendTransaction: '!t',
  eth_signTransaction: '!t',
  wallet_getCapabilities: '?a*',
  wallet_sendCalls: '!k',
  wallet_getCallsStatus: 's',
  wallet_showCallsStatus: 's',
  wallet_requestPermissions: '&p',
  // Reads: they answer at once, revoking only forgets the app's grant.
  wallet_getPermissions: '',
  wallet_revokePermissions: 'p',
  // The embedded wallet's own estimate comes from the wallet service; any other is a chain read.
  eth_estimateGas: 't?**',
} as const

/** A method the wallet frame must have a handler for; any other is a read the chain's RPC answers. */
export type FrameMethod = keyof typeof answered

/** The frame's methods, and the reads whose params are checked before the chain's RPC gets them. */
const signatures: Readonly<Record<string, string>> = {
  ...answered,
  eth_call: 't?**',
  eth_getBalance: 'a?*',
  eth_getCode: 'a?*',
  eth_getTransactionCount: 'a?*',
}

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

type Item = (value: unknown) => string | false | undefined
const test =
  (re: RegExp, what: string): Item =>
  (v) =>
    !(typeof v === 'string' && re.test(v)) && `must be ${what}`
const address = test(/^0x[0-9a-fA-F]{40}$/, 'an address')
const quantity = test(/^0x[0-9a-fA-F]{1,64}$/, 'a hex quantity')
const hex = test(/^0x([0-9a-fA-F]{2})*$/, 'hex data')
const object: Item = (v) => !isRecord(v) && 'must be an object'

/** Checks an object's fields: addresses, hex data and quantities by name; `required` must be there. */
const fields =
  (...required: string[]): Item =>
  (v) =>
    object(v) ||
    required.map((k) => (v as Record<string, unknown>)[k] == null && `.${k} is required`).find(Boolean) ||
    Object.entries(v as object)
      .map(([k, x]) => {
        const check = /^(from|to)$/.test(k) ? address : /^(data|input)$/.test(k) ? hex : /^(gas|value|nonce|chainId|max)/.test(k) ? quantity : undefined
        const reason = x != null && check?.(x)
        return reason && `.${k} ${reason}`
      })
      .find(Boolean)

const items: Readonly<Record<string, Item>> = {
  a: address,
  s: (v) => typeof v !== 'string' && 'must be a string',
  t: fields(),
  c: fields('chainId'),
  d: (v) => {
    try {
      return fields('types', 'primaryType', 'message')(typeof v === 'string' ? JSON.parse(v) : v)
    } catch {
      return 'must be EIP-712 typed data (JSON)'
    }
  },
  k: fields('calls'),
  p: object,
}

/** The reason `params` do not fit `signature`, or undefined. */
export function checkParams(signature: string, params: unknown = []): string | undefined {
  if (!Array.isArray(params)) return 'params must be an array'
  const [required = '', optional = ''] = signature.split('?')
  const all = required + optional
  if (params.length < required.length || params.length > all.length)
    return `expected ${required.length}${optional && ` to ${all.length}`} params, got ${params.length}`
  for (const [i, value] of params.entries()) {
    const reason = items[all[i]!]?.(value)
    if (reason) return `params[${i}] ${reason}`
  }
  return undefined
}

const marks: Readonly<Record<string, Kind>> = { '!': 'sign', '@': 'connect', '#': 'chain', '&': 'permission' }

/**
 * A method's params signature and kind, or undefined when the provider does not support it (4200).
 * Another method is sent only when it is on the read allowlist above: the
 * chain's RPC judges its params (`*` for each). eth_sign (blind hashes), eth_subscribe and anything
 * that would change a node's state are not reads.
 */
export function methodOf(method: string): readonly [string, Kind] | undefined {
  const signature = Object.hasOwn(signatures, method) ? signatures[method] : isRpcRead(method) ? '?**********' : undefined
  if (signature === undefined) return undefined
  const kind = marks[signature[0]!]
  return kind ? [signature.slice(1), kind] : [signature, 'read']
}
