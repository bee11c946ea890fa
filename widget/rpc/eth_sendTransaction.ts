import { parseTransaction } from './tx.ts'
import { positional, requireSession } from './guards.ts'
import type { RpcContext, RpcHandler } from './types.ts'

/** Both transaction methods: the same checks and confirmation, then send or only sign. */
function transactionHandler(failed: string, run: (ctx: RpcContext, network: string, tx: ReturnType<typeof parseTransaction>['request']) => Promise<string>): RpcHandler {
  return (ctx, params) => {
    const [tx] = positional(params, 1)
    const session = requireSession(ctx)
    const { request, payload } = parseTransaction(tx, session)
    return ctx.confirmations.request({
      kind: 'transaction',
      payload,
      rejected: 'Transaction rejected by user',
      failed,
      run: () => run(ctx, session.chain.network, request),
    })
  }
}

export const eth_sendTransaction = transactionHandler(
  'Failed to send transaction',
  async (ctx, network, transaction) => (await ctx.client.wallet.sendTransaction({ network, transaction })).txReceipt.hash,
)

export const eth_signTransaction = transactionHandler(
  'Failed to sign transaction',
  async (ctx, network, transaction) => (await ctx.client.wallet.signTransaction({ network, transaction })).signedTransaction,
)
