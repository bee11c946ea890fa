// JSON-RPC 2.0 as the relay speaks it: one object per frame, in both directions. Errors are values
// sent back to the client, never exceptions that escape a socket's handler.

export type RpcId = number | string

/** An error answered to the client. Codes: JSON-RPC 2.0's, and EIP-1474's -32005 for a limit. */
export class RpcError extends Error {
  override readonly name = 'RpcError'
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

export const rpcCodes = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, limit: -32005 } as const

export const invalidParams = (message: string) => new RpcError(rpcCodes.invalidParams, message)
export const limitReached = (message: string) => new RpcError(rpcCodes.limit, message)

export type Frame =
  | { kind: 'request'; id: RpcId; method: string; params: unknown }
  /** An answer to one of the relay's pushes (irn_subscription): the client's acknowledgement. */
  | { kind: 'response'; id: RpcId }
  /** A request without an id: JSON-RPC answers nothing. */
  | { kind: 'notification' }
  | { kind: 'invalid'; id: RpcId | null; error: RpcError }

const isId = (value: unknown): value is RpcId => (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.length <= 100)

export function readFrame(text: string): Frame {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { kind: 'invalid', id: null, error: new RpcError(rpcCodes.parse, 'Parse error') }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { kind: 'invalid', id: null, error: new RpcError(rpcCodes.invalidRequest, 'Invalid request: one JSON-RPC object per frame') }
  const frame = value as Record<string, unknown>
  const id = isId(frame.id) ? frame.id : null
  if (frame.jsonrpc !== '2.0') return { kind: 'invalid', id, error: new RpcError(rpcCodes.invalidRequest, 'Invalid request: jsonrpc must be "2.0"') }
  if (frame.method === undefined) {
    if (id !== null && ('result' in frame || 'error' in frame)) return { kind: 'response', id }
    return { kind: 'invalid', id, error: new RpcError(rpcCodes.invalidRequest, 'Invalid request: no method') }
  }
  if (typeof frame.method !== 'string') return { kind: 'invalid', id, error: new RpcError(rpcCodes.invalidRequest, 'Invalid request: method must be a string') }
  if (frame.id === undefined) return { kind: 'notification' }
  if (id === null) return { kind: 'invalid', id: null, error: new RpcError(rpcCodes.invalidRequest, 'Invalid request: bad id') }
  return { kind: 'request', id, method: frame.method, params: frame.params }
}

export const resultFrame = (id: RpcId, result: unknown) => JSON.stringify({ id, jsonrpc: '2.0', result })

export const errorFrame = (id: RpcId | null, error: RpcError) => JSON.stringify({ id, jsonrpc: '2.0', error: { code: error.code, message: error.message } })

export const requestFrame = (id: RpcId, method: string, params: unknown) => JSON.stringify({ id, jsonrpc: '2.0', method, params })
