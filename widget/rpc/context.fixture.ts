import type { EstimateGasResult } from '../../sdk/index.ts'
import { createConfirmations } from '../confirmation.ts'
import { testWallet } from '../wallet.fixture.ts'
import { activeAccount } from '../accounts/active.ts'
import { handleRpc } from './index.ts'
import type { RpcContext } from './types.ts'
// The handlers rpc/index.ts loads on first use, loaded with the tests: a test that gives a request
// one tick to reach the confirmation queue measures the handler, not the module loader.
import './calls.ts'
import './chains.ts'
import './eth_estimateGas.ts'
import './eth_sendTransaction.ts'
import './eth_signTypedData_v4.ts'
import './personal_sign.ts'

/**
 * The widget's RPC handlers for unit tests: the real wallet state machine and confirmation queue,
 * with a wallet service that records what it is asked (the real one is in the e2e specs).
 */
export function testContext(options: Parameters<typeof testWallet>[0] & { estimate?: EstimateGasResult | Error } = {}) {
  const t = testWallet(options)
  const calls: [string, Record<string, unknown>][] = []
  const record =
    <R>(name: string, answer: () => R) =>
    async (params: Record<string, unknown>) => {
      calls.push([name, params])
      return answer()
    }
  const estimate = options.estimate ?? { gasLimit: '21000', gasPrice: '2000000000', maxFeePerGas: '3000000000', maxPriorityFeePerGas: '1000000000' }
  const client = {
    wallet: {
      estimateGas: record('estimateGas', () => {
        if (estimate instanceof Error) throw estimate
        return estimate
      }),
      sendTransaction: record('sendTransaction', () => ({ txReceipt: { hash: '0x01' } })),
      signTransaction: record('signTransaction', () => ({ signedTransaction: '0x02' })),
      signMessage: record('signMessage', () => ({ signature: '0x03' })),
      signTypedData: record('signTypedData', () => ({ signature: '0x05' })),
    },
  } as unknown as RpcContext['client']
  const confirmations = createConfirmations(t.wallet, { signer: () => ctx.account()?.address })
  const ctx: RpcContext = {
    wallet: t.wallet,
    client,
    confirmations,
    account: activeAccount(t.wallet, client),
    rpc: () => {
      throw new Error('no chain RPC in unit tests')
    },
  }
  /** A request as the host sends it: the answer, or the error's code and message. */
  const call = (method: string, params?: unknown) =>
    Promise.resolve()
      .then(() => handleRpc(ctx, params === undefined ? { method } : { method, params: params as never }))
      .then(
        (result) => ({ result }),
        (e: { code: number; message: string }) => ({ code: e.code, message: e.message }),
      )
  return { ...t, ctx, calls, call, confirmations }
}
