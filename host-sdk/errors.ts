import { ErrorCode, type Result, type RpcError } from '../bridge/index.ts'

/**
 * An EIP-1193 / EIP-1474 error. Libraries (ethers, viem, wagmi, web3.js) read only `code`,
 * `message` and `data`. One small class instead of ox's: ox/Provider costs 3 KB gzipped, half
 * of the provider's whole size budget.
 */
export class ProviderRpcError extends Error {
  declare readonly code: number
  declare readonly data?: unknown
  constructor(code: number, message: string, data?: unknown) {
    super(message)
    Object.assign(this, { name: 'ProviderRpcError', code }, data === undefined ? {} : { data })
  }
}

export const toProviderError = (error: RpcError): ProviderRpcError => new ProviderRpcError(error.code, error.message, error.data)

export function unwrap<T>(result: Result<T>): T {
  if ('error' in result) throw toProviderError(result.error)
  return result.result
}

export const disconnected = (message: string): RpcError => ({ code: ErrorCode.disconnected, message })
