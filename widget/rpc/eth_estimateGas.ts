import { InternalError } from '../../bridge/error-classes.ts'
import { numberToHex } from 'viem'
import type { Quantity } from '../../bridge/index.ts'
import type { Account } from '../accounts/account.ts'
import { sameAddress } from '../../bridge/rpc-params.ts'
import { forwardRead } from './reads.ts'
import { parseTransaction } from './tx.ts'
import type { RpcHandler } from './types.ts'

/**
 * eth_estimateGas: for the embedded wallet's own transactions, the wallet
 * service's estimate-gas (what its sends use), 'Failed to estimate gas' when it cannot; anything
 * else (another sender, a contract creation, another kind of account, nobody signed in) is a read
 * the chain's RPC answers.
 */
export const eth_estimateGas: RpcHandler<'eth_estimateGas'> = async (ctx, params) => {
  // The chain's RPC answers a quantity (what it answers is passed on as it is).
  const read = () => forwardRead(ctx, { method: 'eth_estimateGas', params }) as Promise<Quantity>
  let account: Account | null = null
  try {
    account = ctx.account()
  } catch {
    return read()
  }
  const [tx] = params
  if (account?.source !== 'embedded' || tx.to == null) return read()
  if (tx.from != null && !sameAddress(tx.from, account.address)) return read()
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
    throw new InternalError({ message: `Failed to estimate gas: ${err instanceof Error && err.message ? err.message : 'Unknown error'}` })
  }
}
