import { parseTransaction } from './tx.ts'
import { positional, requireSession } from './guards.ts'
import type { RpcHandler } from './types.ts'

export const eth_signTransaction: RpcHandler = (ctx, params) => {
  const [tx] = positional(params, 1)
  const session = requireSession(ctx)
  const { request, payload } = parseTransaction(tx, session)
  return ctx.confirmations.request({
    kind: 'transaction',
    payload,
    rejected: 'Transaction rejected by user',
    failed: 'Failed to sign transaction',
    run: async () =>
      (await ctx.client.wallet.signTransaction({ network: session.chain.network, transaction: request })).signedTransaction,
  })
}
