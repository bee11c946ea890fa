/**
 * The params readers of the method table (rpc-methods.ts): each takes one untrusted value and
 * returns it typed, or throws a `Refusal` that says why ("must be an address"). The host runs them
 * before it hands a request to a browser wallet, the wallet frame before any handler runs; the
 * value is the caller's own (structured-cloned), returned as is, so what was read is what is used.
 */
export type Address = `0x${string}`
export type Hex = `0x${string}`
export type Quantity = `0x${string}`

/** Why a value does not fit, worded from the value's side: "must be an address", ".to is required". */
export class Refusal {
  constructor(readonly reason: string) {}
}
export const refuse = (reason: string): never => {
  throw new Refusal(reason)
}

/** Reads one param: the typed value, or a `Refusal`. */
export type Param<T> = (value: unknown) => T

/** `param`'s value, or its refusal with `where` (the place in the params) in front. */
export function at<T>(where: string, param: Param<T>, value: unknown): T {
  try {
    return param(value)
  } catch (err) {
    if (err instanceof Refusal) refuse(`${where} ${err.reason}`)
    throw err
  }
}

/**
 * The only hex pattern of the bridge, host and frame (the others are lengths of it). viem's
 * isAddress and ox's Address.validate also verify mixed-case checksums, which ships keccak in the
 * host's 6 KB bundle; a wallet takes any case here, as the chain's RPC does.
 */
const hexDigits = /^0x[0-9a-fA-F]*$/
/** 0x and hex digits (none too). */
export const isHex = (v: unknown): v is Hex => typeof v === 'string' && hexDigits.test(v)
export const isAddress = (v: unknown): v is Address => isHex(v) && v.length === 42
/** Two addresses this table has checked (0x and 40 hex digits) name the same account, in any case. */
export const sameAddress = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()
/** Whole bytes: an even number of digits. */
export const isHexBytes = (v: unknown): v is Hex => isHex(v) && v.length % 2 === 0
/** A 32-byte hash (a transaction's, a user operation's): exactly 64 digits. */
export const isHash = (v: unknown): v is Hex => isHex(v) && v.length === 66
/**
 * A JSON-RPC quantity: 1 to `maxDigits` digits, 64 unless told (a uint256). Not a callback for
 * `every`/`filter` as is: they pass the index as `maxDigits`.
 */
export const isQuantity = (v: unknown, maxDigits = 64): v is Quantity => isHex(v) && v.length > 2 && v.length <= 2 + maxDigits
/** A quantity a JavaScript number holds exactly (chain ids, nonces): at most 13 digits, below 2^52. */
const isSmallQuantity = (v: unknown): v is Quantity => isQuantity(v) && v.length <= 15

export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The longest list a reader reads (calls of a batch, chain ids): a page's list arrives by
 * structured clone, which copies 10^8 holes at once; reading them would hold the main thread for
 * seconds. No wallet takes a batch this long (the embedded wallet, 10 calls).
 */
const maxItems = 100

/** Every item of a list a reader has bounded, holes included (read as undefined: map, forEach and every skip them). */
const items = (list: readonly unknown[]): unknown[] => Array.from(list)

export const anything: Param<unknown> = (v) => v
export const text: Param<string> = (v) => (typeof v === 'string' ? v : refuse('must be a string'))
export const address: Param<Address> = (v) => (isAddress(v) ? v : refuse('must be an address'))
export const object: Param<Record<string, unknown>> = (v) => (isRecord(v) ? v : refuse('must be an object'))

/** The reason a named field's value is refused, by its name (transactions, calls, chain switches). */
function fieldReason(key: string, v: unknown): string | false {
  if (/^(from|to)$/.test(key)) return !isAddress(v) && 'must be an address'
  if (/^(data|input)$/.test(key)) return !isHexBytes(v) && 'must be hex data'
  if (/^(gas|value|nonce|chainId|max)/.test(key)) {
    if (!isQuantity(v)) return 'must be a hex quantity'
    return /^(nonce|chainId)$/.test(key) && !isSmallQuantity(v) && 'must be a hex number below 2^52'
  }
  return false
}

/** An object whose address, hex data and quantity fields (by name) are checked; `required` must be there. Null is absent. */
const fields =
  <T extends Record<string, unknown>>(...required: string[]): Param<T> =>
  (v) => {
    const record = object(v)
    for (const key of required) if (record[key] == null) refuse(`.${key} is required`)
    for (const [key, x] of Object.entries(record)) {
      const reason = x != null && fieldReason(key, x)
      if (reason) refuse(`.${key} ${reason}`)
    }
    return record as T
  }

type Optional<T> = T | null | undefined

/** An EIP-1193 transaction request (eth_sendTransaction, eth_signTransaction, eth_call, eth_estimateGas, a call of a batch). */
export type TransactionParams = {
  readonly from?: Optional<Address>
  readonly to?: Optional<Address>
  readonly data?: Optional<Hex>
  readonly input?: Optional<Hex>
  readonly value?: Optional<Quantity>
  readonly gas?: Optional<Quantity>
  readonly gasPrice?: Optional<Quantity>
  readonly maxFeePerGas?: Optional<Quantity>
  readonly maxPriorityFeePerGas?: Optional<Quantity>
  /** At most 13 digits. */
  readonly nonce?: Optional<Quantity>
  /** At most 13 digits. */
  readonly chainId?: Optional<Quantity>
  readonly [field: string]: unknown
}
export const transaction = fields<TransactionParams>()

/** wallet_switchEthereumChain / wallet_addEthereumChain's one param (EIP-3326, EIP-3085): a chain id above 0. */
export type ChainParams = { readonly chainId: Quantity; readonly [field: string]: unknown }
export const chain: Param<ChainParams> = (v) => {
  const params = fields<ChainParams>('chainId')(v)
  return Number(params.chainId) > 0 ? params : refuse('.chainId must be a positive hex number')
}

/** EIP-5792 wallet_sendCalls: a list of calls, each a transaction request (how many a wallet takes is its own rule). */
export type CallsParams = {
  readonly calls: readonly TransactionParams[]
  readonly from?: Optional<Address>
  readonly chainId?: Optional<Quantity>
  readonly atomicRequired?: unknown
  readonly [field: string]: unknown
}
export const calls: Param<CallsParams> = (v) => {
  const params = fields<CallsParams>('calls')(v)
  if (!Array.isArray(params.calls) || params.calls.length > maxItems) refuse(`.calls must be a list of at most ${maxItems} calls`)
  for (const [i, call] of items(params.calls).entries()) at(`.calls[${i}]`, transaction, call)
  return params
}

/**
 * EIP-712 typed data, as JSON text or an object: `json` is the exact text to sign, `typed` what it
 * says (read back from that text, so what is checked and shown is what is signed).
 */
export type TypedDataParams = {
  readonly json: string
  readonly typed: {
    readonly types: Record<string, unknown>
    readonly primaryType: string
    readonly message: Record<string, unknown>
    readonly domain?: unknown
  }
}
/** The most typed data the wallet service signs, as JSON text (bytes of UTF-16 counted as one each). */
export const maxTypedDataLength = 64 * 1024

/**
 * `v` as JSON text, given up as soon as it would pass `maxTypedDataLength`: a list of holes costs
 * nothing to post or to clone, but JSON writes each one as "null," (10^8 of them, 500 MB of text).
 */
function boundedJson(v: unknown): string {
  let left = maxTypedDataLength
  return JSON.stringify(v, (key, value: unknown) => {
    left -= key.length + 4 + (typeof value === 'string' ? value.length : 0)
    if (left < 0) throw new RangeError('typed data too large')
    return value
  })
}

export const typedData: Param<TypedDataParams> = (v) => {
  let json: string
  let parsed: unknown
  if (typeof v === 'string' && v.length > maxTypedDataLength) refuse(`must be EIP-712 typed data of at most ${maxTypedDataLength} characters`)
  try {
    // An object JSON cannot write (a BigInt, a cycle) is refused here, not after the modal.
    json = typeof v === 'string' ? v : boundedJson(v)
    parsed = JSON.parse(json)
  } catch (error) {
    if (error instanceof RangeError) refuse(`must be EIP-712 typed data of at most ${maxTypedDataLength} characters`)
    return refuse('must be EIP-712 typed data (JSON)')
  }
  const typed = fields<TypedDataParams['typed']>('types', 'primaryType', 'message')(parsed)
  if (!isRecord(typed.types) || typeof typed.primaryType !== 'string' || !isRecord(typed.message))
    refuse('must be EIP-712 typed data (types, primaryType, message)')
  return { json, typed }
}

/** EIP-5792 wallet_getCapabilities' optional chain list. */
export const chainIds: Param<readonly Quantity[] | undefined> = (v) => {
  if (v == null) return undefined
  if (!Array.isArray(v) || v.length > maxItems || !items(v).every(isSmallQuantity)) refuse('must be a list of chain ids')
  return v as Quantity[]
}

type Values<P extends readonly Param<unknown>[]> = { -readonly [I in keyof P]: P[I] extends Param<infer T> ? T : never }

/** Positional params: `required` then `optional` ones (absent, or shorter). A missing array is []. */
export type Positional<R extends readonly unknown[], O extends readonly unknown[]> = readonly [...R, ...Partial<O>]

export const positional =
  <const R extends readonly Param<unknown>[], const O extends readonly Param<unknown>[] = []>(
    required: R,
    optional?: O,
  ): Param<Positional<Values<R>, Values<O>>> =>
  (params = []) => {
    const all: readonly Param<unknown>[] = [...required, ...(optional ?? [])]
    if (!Array.isArray(params)) refuse('params must be an array')
    const list = params as unknown[]
    if (list.length < required.length || list.length > all.length)
      refuse(`expected ${required.length}${all.length > required.length ? ` to ${all.length}` : ''} params, got ${list.length}`)
    // The count is bounded above: every place is read, a hole as undefined.
    return items(list).map((value, i) => at(`params[${i}]`, all[i]!, value)) as never
  }
