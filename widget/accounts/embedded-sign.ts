import { isHex, parseEther } from 'viem'
import type { TransactionRequest } from '../../sdk/wallet/types.ts'
import { transactionRequestHash } from '../../sdk/wallet/transaction-hash.ts'
import type { WidgetClient } from '../service-client.ts'
import { describeMessage } from '../confirm/message-display.ts'

/** The most bytes a message may have: as 0x-hex they must fit the wallet service's 64 KB body. */
const maxMessageBytes = 32_000

/**
 * personal_sign for the embedded wallet. The service reads an even-length 0x-hex message as the bytes
 * to sign, so plain readable text goes as text and anything else as the hex of its exact bytes: both
 * sign the same bytes. The wallet service signs no bare hash, so nothing is hashed here.
 */
export async function signMessage(client: Pick<WidgetClient, 'wallet'>, network: string, bytes: `0x${string}`): Promise<`0x${string}`> {
  const view = describeMessage(bytes)
  const asText = view.as === 'text' && view.warning === null && !isHex(view.shown)
  if (!asText && bytes.length > 2 + 2 * maxMessageBytes) throw new Error(`This message is too long to sign (at most ${maxMessageBytes} bytes)`)
  const { signature } = await client.wallet.signMessage({ network, message: asText ? view.shown : bytes })
  return signature as `0x${string}`
}

/**
 * The step-up hash (sdk/wallet/transaction-hash.ts) of a transaction as the frame sends it to the
 * wallet service: the value in whole units of 18 decimals or 0x-hex wei, fees as decimal integers,
 * read as the service reads them, so both sides hash the same numbers.
 */
export function transactionHashOf(chainId: number, tx: TransactionRequest): `0x${string}` {
  const quantity = (value: string | undefined) => (value === undefined ? undefined : BigInt(value))
  return transactionRequestHash({
    chainId,
    from: tx.from as `0x${string}`,
    to: tx.to as `0x${string}`,
    ...(tx.value !== undefined && { value: tx.value.startsWith('0x') ? BigInt(tx.value) : parseEther(tx.value) }),
    ...(tx.data !== undefined && { data: tx.data as `0x${string}` }),
    ...(tx.nonce !== undefined && { nonce: tx.nonce }),
    ...(tx.gasLimit !== undefined && { gas: quantity(tx.gasLimit) }),
    ...(tx.gasPrice !== undefined && { gasPrice: quantity(tx.gasPrice) }),
    ...(tx.maxFeePerGas !== undefined && { maxFeePerGas: quantity(tx.maxFeePerGas) }),
    ...(tx.maxPriorityFeePerGas !== undefined && { maxPriorityFeePerGas: quantity(tx.maxPriorityFeePerGas) }),
  })
}
