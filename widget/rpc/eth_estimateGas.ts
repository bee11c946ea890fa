import * as RpcResponse from 'ox/RpcResponse'
import { isAddressEqual, numberToHex } from 'viem'
import type { Account } from '../accounts/account.ts'
import { forwardRead } from './reads.ts'
import { parseTransaction } from './tx.ts'
import type { RpcHandler } from './types.ts'

/**
 * eth_estimateGas (SPEC.md section 8): for the embedded wallet's own transactions, the wallet
 * service's estimate-gas (what its sends use), 'Failed to estimate gas' when it cannot; anything
 * else (another sender, a contract creation, another kind of account, nobody signed in) is a read
 * the chain's RPC answers.
 */
export const eth_estimateGas: RpcHandler = async (ctx, params) => {
  const read = () => forwardRead(ctx, { method: 'eth_estimateGas', ...(params !== undefined && { params }) })
  let account: Account | null = null
  try {
    account = ctx.account()
  } catch {
    return read()
  }
  const tx = Array.isArray(params) ? (params[0] as Record<string, unknown> | undefined) : undefined
  if (account?.source !== 'embedded' || !tx || tx.to === undefined || tx.to === null) return read()
  if (typeof tx.from === 'string' && !isAddressEqual(tx.from as `0x${string}`, account.address)) return read()
  const { request } = parseTransaction(tx, account)
  try {
    const { gasLimit } = await account.estimateGas({
      from: request.from,
      to: request.to,
      data: request.data,
      ...(request.value !== undefined && { value: request.value }),
    })
    return numberToHex(BigInt(gasLimit))
  } catch (err) {
    throw new RpcResponse.InternalError({ message: `Failed to estimate gas: ${err instanceof Error && err.message ? err.message : 'Unknown error'}` })
  }
}
