/**
 * The error vocabulary of both sides: EIP-1193 / EIP-1474 codes, the serialisable `{ code, message }`
 * that crosses the bridge, and one class per code. Penpal keeps only name, message and stack of a
 * thrown error, so bridge methods never throw across: they answer `{ result }` or `{ error }`
 * (serve.ts) and the host rebuilds the error class from the code.
 */
export const ErrorCode = {
  userRejected: 4001,
  unauthorized: 4100,
  unsupportedMethod: 4200,
  disconnected: 4900,
  chainDisconnected: 4901,
  unknownChain: 4902,
  invalidParams: -32602,
  internal: -32603,
} as const

export type RpcError = { code: number; message: string; data?: unknown }

/**
 * An EIP-1193 / EIP-1474 error, as every error the provider throws or emits. Libraries (ethers,
 * viem, wagmi, web3.js) read only `code`, `message` and `data`; a dapp may also test the class.
 *
 * Each code the kit raises has its own subclass below, named as ox names it, with the code on the
 * class and on the instance (`UserRejectedRequestError.code === 4001`). Built with a known code,
 * `new ProviderRpcError(code, …)` is already an instance of that code's class, so whichever way an
 * error is made (in the frame, in the provider, from the frame's `{ code, message }`), `instanceof`
 * and `.code` always agree. The frame throws these and the host rebuilds them: one vocabulary on
 * both sides. Our own small classes rather than ox's: ox/Provider and ox/RpcResponse pull in their
 * event emitter and error base, about 2 KB gzipped in the host (over a quarter of the provider's
 * 7.5 KB budget) and 3 KB in the frame's core.
 */
export class ProviderRpcError extends Error {
  declare readonly code: number
  declare readonly data?: unknown
  constructor(code: number, message: string, data?: unknown) {
    super(message)
    const coded = new.target === ProviderRpcError && byCode.get(code)
    if (coded) Object.setPrototypeOf(this, coded.prototype)
    Object.assign(this, { name: 'ProviderRpcError', code }, data === undefined ? {} : { data })
  }
}

/** How each class is built: the message (by default the error's short name in its EIP) and the optional `data`. */
export type ProviderErrorOptions = { message?: string; data?: unknown }

/** One class of the vocabulary: `code` on the class, and the same literal code on its instances. */
export type ProviderErrorClass<C extends number> = {
  new (options?: ProviderErrorOptions): ProviderRpcError & { readonly code: C }
  readonly code: C
}

const byCode = new Map<number, ProviderErrorClass<number>>()

function coded<const C extends number>(code: C, fallback: string): ProviderErrorClass<C> {
  const coded = class extends ProviderRpcError {
    static readonly code = code
    declare readonly code: C
    constructor({ message = fallback, data }: ProviderErrorOptions = {}) {
      super(code, message, data)
    }
  } as ProviderErrorClass<C>
  byCode.set(code, coded)
  return coded
}

// EIP-1193: the user or the provider's state refused the request.
export const UserRejectedRequestError = coded(ErrorCode.userRejected, 'User rejected the request')
export const UnauthorizedError = coded(ErrorCode.unauthorized, 'Unauthorized')
export const UnsupportedMethodError = coded(ErrorCode.unsupportedMethod, 'Unsupported method')
export const DisconnectedError = coded(ErrorCode.disconnected, 'Disconnected')
export const ChainDisconnectedError = coded(ErrorCode.chainDisconnected, 'Chain disconnected')
// EIP-3326: wallet_switchEthereumChain to a chain the app does not offer.
export const SwitchChainError = coded(ErrorCode.unknownChain, 'Unrecognized chain')
// EIP-1474: the request itself.
export const InvalidParamsError = coded(ErrorCode.invalidParams, 'Invalid params')
export const InternalError = coded(ErrorCode.internal, 'Internal error')
export const LimitExceededError = coded(-32005, 'Limit exceeded')
// EIP-5792: wallet_sendCalls and wallet_getCallsStatus.
export const UnknownBundleIdError = coded(5730, 'Unknown bundle id')
export const AtomicityNotSupportedError = coded(5760, 'Atomicity not supported')

export type UserRejectedRequestError = InstanceType<typeof UserRejectedRequestError>
export type UnauthorizedError = InstanceType<typeof UnauthorizedError>
export type UnsupportedMethodError = InstanceType<typeof UnsupportedMethodError>
export type DisconnectedError = InstanceType<typeof DisconnectedError>
export type ChainDisconnectedError = InstanceType<typeof ChainDisconnectedError>
export type SwitchChainError = InstanceType<typeof SwitchChainError>
export type InvalidParamsError = InstanceType<typeof InvalidParamsError>
export type InternalError = InstanceType<typeof InternalError>
export type LimitExceededError = InstanceType<typeof LimitExceededError>
export type UnknownBundleIdError = InstanceType<typeof UnknownBundleIdError>
export type AtomicityNotSupportedError = InstanceType<typeof AtomicityNotSupportedError>

/** The frame's serialisable `{ code, message, data? }` as the class of its code (ProviderRpcError itself for any other code). */
export const toProviderError = (error: RpcError): ProviderRpcError => new ProviderRpcError(error.code, error.message, error.data)
