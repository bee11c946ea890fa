import { BaseError, ContractFunctionRevertedError } from 'viem'

/** ERC-4337 / JSON-RPC errors the bundler answers with (EIP-7769 codes). */
export class BundlerError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message)
  }
}

export const rejectedByEntryPoint = -32500
export const rejectedByPaymaster = -32501
export const invalidUserOp = -32602

/** The EntryPoint's FailedOp / FailedOpWithRevert as a bundler error (AA codes kept in the message). */
export function entryPointError(error: unknown): BundlerError {
  const revert = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined
  if (revert instanceof ContractFunctionRevertedError && revert.data) {
    const { errorName, args = [] } = revert.data
    if (errorName === 'FailedOp' || errorName === 'FailedOpWithRevert') {
      const reason = String(args[1])
      const code = reason.startsWith('AA3') ? rejectedByPaymaster : rejectedByEntryPoint
      return Object.assign(new BundlerError(code, reason), { opIndex: args[0] as bigint })
    }
  }
  return new BundlerError(rejectedByEntryPoint, `The EntryPoint refused the operation: ${shortReason(error)}`)
}

export const shortReason = (error: unknown) => (error instanceof BaseError ? error.shortMessage : String((error as Error)?.message ?? error))
