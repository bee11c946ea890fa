/**
 * EIP-1193 / EIP-1474 codes and the serialisable error shape that crosses the bridge.
 * Penpal keeps only name, message and stack of a thrown error, so bridge methods never throw:
 * they answer `{ result }` or `{ error }` and the host rebuilds the error class from the code.
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
export type Ok<T> = { result: T }
export type Fail = { error: RpcError }
export type Result<T = unknown> = Ok<T> | Fail

export function ok<T>(result: T): Ok<T> {
  return { result }
}

export function fail(code: number, message: string, data?: unknown): Fail {
  return data === undefined ? { error: { code, message } } : { error: { code, message, data } }
}

/** Turns anything thrown into a serialisable error, keeping a numeric `code` when the thrown value has one. */
export function toFail(err: unknown): Fail {
  if (typeof err === 'object' && err !== null) {
    const { code, message, data } = err as { code?: unknown; message?: unknown; data?: unknown }
    const text = typeof message === 'string' && message ? message : 'Internal error'
    if (typeof code === 'number' && Number.isInteger(code)) return fail(code, text, data)
    return fail(ErrorCode.internal, text)
  }
  return fail(ErrorCode.internal, typeof err === 'string' && err ? err : 'Internal error')
}

/** `{ result }` or `{ error: { code, message } }`, never both (JSON-RPC 2.0): callers tell them apart by `'error' in`. */
export function isResult(value: unknown): value is Result {
  if (typeof value !== 'object' || value === null) return false
  if ('result' in value) return !('error' in value)
  if (!('error' in value)) return false
  const { error } = value as { error: unknown }
  return typeof error === 'object' && error !== null && typeof (error as RpcError).code === 'number' && typeof (error as RpcError).message === 'string'
}
