import { InternalError, UnsupportedMethodError } from '../../bridge/error-classes.ts'
import type { Account } from '../accounts/account.ts'
import { completeFees, needsEstimate, summarizeFees } from './fees.ts'
import { refuseSelfCall } from './guards.ts'
import { parseTransaction, withFees } from './tx.ts'
import type { RpcHandler } from './types.ts'

type Parsed = ReturnType<typeof parseTransaction>

/**
 * The fee the user will be shown and that will be signed: the host's figures, and the wallet
 * service's estimate for those it left out; an estimate that fails is 'Failed to estimate gas: …'.
 */
async function prepare(account: Account, { request, payload, fees, value }: Parsed) {
  // A sponsored account's gas is its operation's, paid by the app: nothing to estimate or show as a fee.
  // The operation's nonce is the EntryPoint's: a nonce the site named would be shown and not used.
  if (account.sponsored) {
    const { nonce: _, ...shown } = payload
    return { request, payload: { ...shown, sponsored: true } }
  }
  let estimate: Awaited<ReturnType<Account['estimateGas']>> | undefined
  if (needsEstimate(fees)) {
    const { from, to, data } = request
    try {
      estimate = await account.estimateGas({ from, to, data, ...(request.value !== undefined && { value: request.value }) })
    } catch (err) {
      throw new InternalError({ message: `Failed to estimate gas: ${err instanceof Error && err.message ? err.message : 'Unknown error'}` })
    }
  }
  const complete = completeFees(fees, estimate)
  return { request: withFees(request, complete), payload: { ...payload, fee: summarizeFees(complete, value) } }
}

/** Both transaction methods: the same checks and confirmation, then send or only sign. */
function transactionHandler(failed: string, run: (account: Account, tx: Parsed['request']) => Promise<string>): RpcHandler<'eth_sendTransaction'> {
  return (ctx, [tx]) => {
    const account = ctx.signer()
    const parsed = parseTransaction(tx, account)
    refuseSelfCall(account, parsed.request.to, 'to')
    // Estimated only once the request has a place in the queue (a flood costs no service calls).
    let prepared: ReturnType<typeof prepare> | undefined
    return ctx.confirmations.request({
      kind: 'transaction',
      payload: async () => {
        prepared = prepare(account, parsed)
        const { payload } = await prepared
        // Still this page's account once the fee is known (the page may have been disconnected meanwhile).
        ctx.signer(account.address)
        return payload
      },
      rejected: 'Transaction rejected by user',
      failed,
      onDevice: account.confirmsOnDevice,
      // The chain and the fee figures are the ones shown: one account, one prepared body.
      run: async () => run(account, (await prepared!).request),
    })
  }
}

export const eth_sendTransaction = transactionHandler('Failed to send transaction', (account, tx) => account.sendTransaction(tx))

const signTransaction = transactionHandler('Failed to sign transaction', (account, tx) => account.signTransaction(tx))

/** A smart account has no transaction of its own to sign (it sends user operations): 4200 before anything is shown. */
export const eth_signTransaction: RpcHandler<'eth_signTransaction'> = (ctx, params) => {
  if (ctx.signer().source === 'smart-account')
    throw new UnsupportedMethodError({ message: 'A smart account sends user operations: it has no signed transaction to give' })
  return signTransaction(ctx, params)
}
