import { address, at, isQuantity, object, refuse, type Address, type Param, type Quantity } from './rpc-params.ts'

/**
 * The reader of ERC-7846 wallet_connect's param and its signInWithEthereum capability. Only the
 * wallet frame reads it (the method table checks the param is an object): the host's bundle has no
 * room for it, and a browser wallet's sign-in is written by the frame too (bridge method
 * connectAnswer). Apart from the table's readers (rpc-params.ts) so that it loads with the frame's
 * wallet_connect handler only.
 */
type Optional<T> = T | null | undefined

/**
 * A string of 1 to `max` characters that shows as itself on one line: no control character or line
 * break (each field is one line of the message), and no format character (bidi overrides, zero
 * width) that would make the line the user reads differ from the one signed.
 */
const line =
  (max: number): Param<string> =>
  (v) =>
    typeof v === 'string' && v.length > 0 && v.length <= max && !/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(v)
      ? v
      : refuse(`must be one line of at most ${max} characters, with no control or invisible characters`)
/** A date and time in the ISO 8601 form sign-in messages use (2026-01-02T03:04:05.000Z). */
const dateTime: Param<string> = (v) =>
  typeof v === 'string' && v.length <= 40 && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(v) && !Number.isNaN(Date.parse(v))
    ? v
    : refuse('must be an ISO 8601 date and time')

/**
 * The signInWithEthereum capability of an ERC-7846 wallet_connect (EIP-4361 fields): the dapp's
 * nonce (8 to 64 letters and digits: a server's random, never a replay counter or a text) and the
 * chain, required; the rest optional. The wallet writes the message itself: the domain and URI, when
 * given, must be the page's own (the frame checks them against the origin it verified), the issue
 * time is its own clock.
 */
export type SignInParams = {
  readonly nonce: string
  readonly chainId: Quantity
  readonly domain?: Optional<string>
  readonly uri?: Optional<string>
  readonly scheme?: Optional<string>
  readonly statement?: Optional<string>
  readonly version?: Optional<string>
  readonly address?: Optional<Address>
  readonly requestId?: Optional<string>
  readonly resources?: Optional<readonly string[]>
  readonly issuedAt?: Optional<string>
  readonly expirationTime?: Optional<string>
  readonly notBefore?: Optional<string>
  readonly [field: string]: unknown
}
const signInFields: Readonly<Record<string, Param<unknown>>> = {
  domain: line(253),
  uri: line(2048),
  scheme: (v) => (typeof v === 'string' && /^[a-zA-Z][a-zA-Z0-9+.-]{0,31}$/.test(v) ? v : refuse('must be a URI scheme')),
  statement: line(1000),
  version: (v) => (v === '1' ? v : refuse("must be '1'")),
  address,
  requestId: line(200),
  resources: (v) =>
    Array.isArray(v) && v.length <= 20 ? Array.from(v).map((r, i) => at(`[${i}]`, line(2048), r)) : refuse('must be a list of at most 20 URIs'),
  issuedAt: dateTime,
  expirationTime: dateTime,
  notBefore: dateTime,
}
const signIn: Param<SignInParams> = (v) => {
  const params = object(v)
  if (typeof params.nonce !== 'string' || !/^[a-zA-Z0-9]{8,64}$/.test(params.nonce)) refuse('.nonce must be 8 to 64 letters and digits')
  if (!isQuantity(params.chainId, 13) || Number(params.chainId) <= 0) refuse('.chainId must be a positive hex number below 2^52')
  for (const [key, read] of Object.entries(signInFields)) if (params[key] != null) at(`.${key}`, read, params[key])
  return params as SignInParams
}

/**
 * ERC-7846 wallet_connect's one optional param. Capabilities the wallet does not know are left
 * unanswered, as a wallet does with capabilities it does not support; signInWithEthereum is read.
 */
export type ConnectParams = {
  readonly version?: Optional<string>
  readonly capabilities?: Optional<{ readonly signInWithEthereum?: Optional<SignInParams>; readonly [name: string]: unknown }>
  readonly [field: string]: unknown
}
export const connectParams: Param<ConnectParams | undefined> = (v) => {
  if (v == null) return undefined
  const params = object(v)
  if (params.version != null) at('.version', line(20), params.version)
  if (params.capabilities == null) return params
  const capabilities = at('.capabilities', object, params.capabilities)
  if (capabilities.signInWithEthereum != null) at('.capabilities.signInWithEthereum', signIn, capabilities.signInWithEthereum)
  return params
}
