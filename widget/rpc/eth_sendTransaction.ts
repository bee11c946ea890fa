import { parseTransaction } from './tx.ts'
import { positional, requireSession } from './guards.ts'
import type { RpcHandler } from './types.ts'

export const eth_sendTransaction: RpcHandler = (ctx, params) => {
  const [tx] = positional(params, 1)
  const session = requireSession(ctx)
  const { request, payload } = parseTransaction(tx, session)
  return ctx.confirmations.request({
    kind: 'transaction',
    payload,
    rejected: 'Transaction rejected by user',
    failed: 'Failed to send transaction',
    run: async () =>
      (await ctx.client.wallet.sendTransaction({ network: session.chain.network, transaction: request })).txReceipt.hash,
  })
}
