import type { FrameMethod, ParamsOf, ResultOf } from '../../bridge/index.ts'
import type { ChainClient } from '../../sdk/index.ts'
import type { Account } from '../accounts/account.ts'
import type { Confirmations } from '../confirmation.ts'
import type { WidgetClient } from '../service-client.ts'
import type { Wallet } from '../wallet.ts'
import type { MethodPorts, SignerPort } from './ports.ts'

/**
 * Everything the frame's RPC runs with, as the registry (index.ts) holds it. A handler sees only
 * its method's ports (ports.ts), views of this that it is assignable to.
 */
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
 * What the registry hands a handler for one request (index.ts `handleRpc`): the context, where
 * `account` is null while this page is not connected, and who signs for it.
 */
export type RequestContext = RpcContext & SignerPort

/**
 * A frame method's handler: it gets the ports its method may use (ports.ts), and the params the
 * method table parsed (bridge/rpc-methods.ts), typed, never raw ones, and answers the method's
 * result type.
 */
export type RpcHandler<M extends FrameMethod> = (ctx: MethodPorts[M], params: ParamsOf<M>) => ResultOf[M] | Promise<ResultOf[M]>
