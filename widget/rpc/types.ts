import type { FrameMethod, ParamsOf, ResultOf } from '../../bridge/index.ts'
import type { ChainClient } from '../../sdk/index.ts'
import type { Account } from '../accounts/account.ts'
import type { Confirmations } from '../confirmation.ts'
import type { WidgetClient } from '../service-client.ts'
import type { Wallet } from '../wallet.ts'

export type RpcContext = {
  wallet: Wallet
  client: WidgetClient
  confirmations: Confirmations
  /** The account signing requests act for (accounts/active.ts), or null when nobody is signed in. */
  account: () => Account | null
  /** JSON-RPC to the current chain's RPC URLs, in order, with fallback. */
  rpc: (chainId: number) => ChainClient
}

/**
 * A frame method's handler: it gets the params the method table parsed (bridge/rpc-methods.ts),
 * typed, never raw ones, and answers the method's result type.
 */
export type RpcHandler<M extends FrameMethod> = (ctx: RpcContext, params: ParamsOf<M>) => ResultOf[M] | Promise<ResultOf[M]>
