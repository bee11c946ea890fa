import * as Provider from 'ox/Provider'
import { ErrorCode, type Result, type RpcError } from '../bridge/index.ts'

/** Rebuilds the EIP-1193 / EIP-1474 error class (ox) from the code that crossed the bridge. */
export function toProviderError(error: RpcError): Error {
  return Provider.parseError(error) as Error
}

export function unwrap<T>(result: Result<T>): T {
  if ('error' in result) throw toProviderError(result.error)
  return result.result
}

export const disconnected = (message: string): RpcError => ({ code: ErrorCode.disconnected, message })
