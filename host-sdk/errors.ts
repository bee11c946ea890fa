import type { Result, RpcError } from '../bridge/index.ts'
import { ErrorCode } from '../bridge/index.ts'
import { toProviderError } from '../bridge/error-classes.ts'

// The error classes are the bridge's: the frame throws them, the provider rebuilds them, dapps import them from here.
export * from '../bridge/error-classes.ts'

export function unwrap<T>(result: Result<T>): T {
  if ('error' in result) throw toProviderError(result.error)
  return result.result
}

export const disconnected = (message: string): RpcError => ({ code: ErrorCode.disconnected, message })
