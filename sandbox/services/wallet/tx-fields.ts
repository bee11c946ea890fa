import { getAddress, isAddress, isHex, parseUnits, size, type Address, type Hex } from 'viem'
import { HttpError, type JsonObject, onlyFields } from '../../http/exchange.ts'

// Strict readers for the wallet operation bodies (POST /api/v2/wallet/...). Conventions (also in the README):
//   amounts (`amount`, `transaction.value`): decimal strings in whole units ("0.125"); a 0x-hex
//     string is read as a base-unit quantity, like JSON-RPC's value
//   fee fields and gas limits: integers in wei / gas units, as decimal strings or 0x-hex
//   nonce: a JSON number
// Unknown fields are refused (onlyFields, http/exchange.ts), so a client typo fails loudly instead of being ignored.

const bad = (message: string) => new HttpError(400, message)

const present = (value: unknown) => value !== undefined && value !== null

export function readAddress(value: unknown, key: string): Address {
  if (!present(value)) throw bad(`${key} is required`)
  if (typeof value !== 'string') throw bad(`${key} must be a string`)
  if (!isAddress(value, { strict: false })) throw bad(`${key} is not a valid address`)
  // Mixed case must be a valid EIP-55 checksum; all lower case is taken as is.
  if (!isAddress(value, { strict: true })) throw bad(`${key} has an invalid checksum`)
  return getAddress(value)
}

export function readHexData(value: unknown, key: string): Hex {
  if (!present(value)) throw bad(`${key} is required`)
  if (typeof value !== 'string' || !isHex(value, { strict: true }) || value.length % 2 !== 0) throw bad(`${key} must be 0x-prefixed hex bytes`)
  if (value.length > 2 + 2 * 128 * 1024) throw bad(`${key} is too long`)
  return value
}

export function readBytes32(value: unknown, key: string): Hex {
  const hex = readHexData(value, key)
  if (hex.length !== 66) throw bad(`${key} must be 32 bytes`)
  return hex
}

const maxUint256 = 2n ** 256n - 1n

/** An unsigned integer as a decimal string, a 0x-hex string or a safe JSON number. */
export function readQuantity(value: unknown, key: string): bigint {
  if (!present(value)) throw bad(`${key} is required`)
  let result: bigint | undefined
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) result = BigInt(value)
  else if (typeof value === 'string' && /^(0|[1-9]\d{0,77})$/.test(value)) result = BigInt(value)
  else if (isHex(value) && size(value) >= 1 && size(value) <= 32) result = BigInt(value) // 1 to 64 digits
  if (result === undefined || result > maxUint256) throw bad(`${key} must be a non-negative integer (decimal string or 0x-hex)`)
  return result
}

export function optionalQuantity(value: unknown, key: string): bigint | undefined {
  return present(value) ? readQuantity(value, key) : undefined
}

/** A decimal amount in whole units ("0.125") converted with `decimals`; 0x-hex is taken as base units. */
export function readAmount(value: unknown, key: string, decimals: number): bigint {
  if (!present(value)) throw bad(`${key} is required`)
  if (typeof value === 'string' && value.startsWith('0x')) return readQuantity(value, key)
  if (typeof value !== 'string' || !/^\d{1,78}(\.\d{1,78})?$/.test(value)) throw bad(`${key} must be a decimal string in whole units, e.g. "0.125"`)
  const fraction = value.split('.')[1] ?? ''
  if (fraction.replace(/0+$/, '').length > decimals) throw bad(`${key} has more than ${decimals} decimals`)
  const amount = parseUnits(value, decimals)
  if (amount > maxUint256) throw bad(`${key} is too large`)
  return amount
}

export function readNonce(value: unknown, key = 'nonce'): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw bad(`${key} must be a non-negative integer`)
  return value
}

export function optionalNonce(value: unknown, key = 'nonce'): number | undefined {
  return present(value) ? readNonce(value, key) : undefined
}

/** One value or a non-empty list of them (transfer-erc1155's amount and tokenId). */
export function readOneOrMany<value>(raw: unknown, key: string, read: (item: unknown, key: string) => value): value[] {
  if (!Array.isArray(raw)) return [read(raw, key)]
  if (raw.length === 0 || raw.length > 100) throw bad(`${key} must list 1 to 100 values`)
  return raw.map((item, index) => read(item, `${key}[${index}]`))
}

export function readObject(value: unknown, key: string): JsonObject {
  if (!present(value)) throw bad(`${key} is required`)
  if (typeof value !== 'object' || Array.isArray(value)) throw bad(`${key} must be an object`)
  return value as JsonObject
}

/** Fee and nonce fields shared by the sending calls, in the form viem takes them. */
export type FeeFields = {
  nonce?: number
  gas?: bigint
  gasPrice?: bigint
  maxFeePerGas?: bigint
  maxPriorityFeePerGas?: bigint
}

export const feeFieldNames = ['nonce', 'gasPrice', 'gasLimit', 'maxFeePerGas', 'maxPriorityFeePerGas'] as const

export function readFees(body: JsonObject): FeeFields {
  const fees: FeeFields = {}
  const nonce = optionalNonce(body.nonce)
  if (nonce !== undefined) fees.nonce = nonce
  const gas = optionalQuantity(body.gasLimit, 'gasLimit')
  if (gas !== undefined) fees.gas = gas
  const gasPrice = optionalQuantity(body.gasPrice, 'gasPrice')
  const maxFeePerGas = optionalQuantity(body.maxFeePerGas, 'maxFeePerGas')
  const maxPriorityFeePerGas = optionalQuantity(body.maxPriorityFeePerGas, 'maxPriorityFeePerGas')
  if (gasPrice !== undefined && (maxFeePerGas !== undefined || maxPriorityFeePerGas !== undefined))
    throw bad('gasPrice (legacy) cannot be combined with maxFeePerGas or maxPriorityFeePerGas (EIP-1559)')
  if (gasPrice !== undefined) fees.gasPrice = gasPrice
  if (maxFeePerGas !== undefined) fees.maxFeePerGas = maxFeePerGas
  if (maxPriorityFeePerGas !== undefined) fees.maxPriorityFeePerGas = maxPriorityFeePerGas
  if (maxFeePerGas !== undefined && maxPriorityFeePerGas !== undefined && maxPriorityFeePerGas > maxFeePerGas)
    throw bad('maxPriorityFeePerGas cannot exceed maxFeePerGas')
  return fees
}

/** A transaction the wallet is asked to sign or send; `from` must be the wallet itself. */
export type TxRequest = FeeFields & { to: Address; value?: bigint; data?: Hex }

export function readTransaction(raw: unknown, wallet: Address, options: { dataRequired: boolean; allowed: readonly string[] }): TxRequest {
  const tx = readObject(raw, 'transaction')
  onlyFields(tx, options.allowed, 'transaction')
  const from = readAddress(tx.from, 'transaction.from')
  if (from !== wallet) throw new HttpError(400, 'transaction.from is not this wallet')
  const request: TxRequest = { to: readAddress(tx.to, 'transaction.to'), ...readFees(tx) }
  if (present(tx.value)) request.value = readAmount(tx.value, 'transaction.value', 18)
  if (options.dataRequired || present(tx.data)) request.data = readHexData(tx.data, 'transaction.data')
  return request
}
