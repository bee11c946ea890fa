import { BaseError, ContractFunctionRevertedError, decodeAbiParameters, isAddressEqual, size, slice, type Address, type Hex } from 'viem'

/** ERC-4337 / JSON-RPC errors the bundler answers with (EIP-7769 codes), with the error object's optional `data`. */
export class BundlerError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message)
  }
}

/**
 * The bundler's error codes, all in this one table (EIP-7769, and -32521 of ERC-4337's RPC):
 * - -32602 a malformed operation or request field, or an operation this bundler does not take
 *   (gas, fees, factory, paymaster, entry point, already sent);
 * - -32500 the EntryPoint refused the operation in simulation: the message is its "AAxx" reason
 *   (AA1x creation, AA2x account: nonce, prefund, verification gas...) unless a row below claims it;
 * - -32501 the paymaster refused it (AA3x, or the sandbox's sponsorship: unknown, gas tank too low,
 *   daily cap); `data.paymaster` always names the paymaster;
 * - -32503 out of its time range (AA22 the account's, AA32 the paymaster's), or the sandbox paymaster's
 *   sponsorship expires within 30 s: `data` has the paymaster and its validUntil / validAfter when
 *   the sandbox's paymaster set them;
 * - -32507 a signature check failed (AA24 the account's, AA34 the paymaster's);
 * - -32508 the paymaster's EntryPoint deposit cannot pay for the operation (AA31), or for it and the
 *   operations already pending for that paymaster (their maximum costs);
 * - -32521 estimation only: the operation's call reverts.
 * Never produced: -32502 (opcode rules: the bundler takes only its own factory's accounts instead of
 * tracing validation), -32504 and -32505 (reputation and stake: its only paymaster is its own),
 * -32506 (aggregators: an account returning one fails with AA24).
 */
export const bundlerErrorCodes = {
  invalidFields: -32602,
  rejectedByEntryPoint: -32500,
  rejectedByPaymaster: -32501,
  outOfTimeRange: -32503,
  invalidSignature: -32507,
  paymasterDepositTooLow: -32508,
  executionReverted: -32521,
  // JSON-RPC's own, and the sandbox's sponsorship credentials (ERC-7677 calls without the app's headers).
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  internal: -32603,
  appUnauthorized: -32001,
} as const

export const rejectedByEntryPoint = bundlerErrorCodes.rejectedByEntryPoint
export const rejectedByPaymaster = bundlerErrorCodes.rejectedByPaymaster
export const invalidUserOp = bundlerErrorCodes.invalidFields

/** The EIP-7769 code of an EntryPoint FailedOp reason ("AAxx ..."). */
export function codeOfReason(reason: string): number {
  const aa = /^AA(\d\d)\b/.exec(reason)?.[1]
  if (aa === '24' || aa === '34') return bundlerErrorCodes.invalidSignature
  if (aa === '22' || aa === '32') return bundlerErrorCodes.outOfTimeRange
  if (aa === '31') return bundlerErrorCodes.paymasterDepositTooLow
  if (aa?.startsWith('3')) return bundlerErrorCodes.rejectedByPaymaster
  return bundlerErrorCodes.rejectedByEntryPoint
}

type OpPaymaster = { paymaster?: Address | undefined; paymasterData?: Hex | undefined }

/** The paymaster's window from its data, when it is the sandbox's verifying paymaster (abi.encode(uint48 validUntil, uint48 validAfter) first). */
export function paymasterWindow(op: OpPaymaster, ownPaymaster: Address | undefined) {
  if (!op.paymaster || !op.paymasterData || !ownPaymaster || !isAddressEqual(op.paymaster, ownPaymaster) || size(op.paymasterData) < 64) return {}
  const [validUntil, validAfter] = decodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], slice(op.paymasterData, 0, 64))
  return { validUntil: Number(validUntil), validAfter: Number(validAfter) }
}

/**
 * The EntryPoint's FailedOp / FailedOpWithRevert as a bundler error, coded by its AA reason (kept as
 * the message) and carrying `opIndex`; `ops` are the simulated bundle's, for the data of paymaster errors.
 */
export function entryPointError(error: unknown, ops: readonly OpPaymaster[] = [], ownPaymaster?: Address): BundlerError {
  const revert = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : undefined
  if (revert instanceof ContractFunctionRevertedError && revert.data) {
    const { errorName, args = [] } = revert.data
    if (errorName === 'FailedOp' || errorName === 'FailedOpWithRevert') {
      const reason = String(args[1])
      const code = codeOfReason(reason)
      const op = ops[Number(args[0])]
      const paymasterError = /^AA3\d/.test(reason) && op?.paymaster
      const data = paymasterError
        ? { paymaster: op.paymaster, ...(code === bundlerErrorCodes.outOfTimeRange ? paymasterWindow(op, ownPaymaster) : {}) }
        : undefined
      return Object.assign(new BundlerError(code, reason, data), { opIndex: args[0] as bigint })
    }
  }
  return new BundlerError(rejectedByEntryPoint, `The EntryPoint refused the operation: ${shortReason(error)}`)
}

/** A JSON-RPC error object; a paymaster refusal always names the paymaster (`data.paymaster`). */
export function rpcErrorObject(error: BundlerError, paymaster: Address): { code: number; message: string; data?: Record<string, unknown> } {
  const data = error.code === rejectedByPaymaster ? { paymaster, ...error.data } : error.data
  return { code: error.code, message: error.message, ...(data ? { data } : {}) }
}

export const shortReason = (error: unknown) => (error instanceof BaseError ? error.shortMessage : String((error as Error)?.message ?? error))
