import * as Provider from 'ox/Provider'
import { checkParams, isRpcRead, methodOf, type FrameMethod, type RpcRequest } from '../../bridge/index.ts'
import { notConfigured } from '../active-chain.ts'
import { lazyModule } from '../lazy-module.ts'
import { eth_accounts } from './eth_accounts.ts'
import { eth_chainId, net_version } from './eth_chainId.ts'
import { eth_requestAccounts } from './eth_requestAccounts.ts'
import { eth_sendTransaction, eth_signTransaction } from './eth_sendTransaction.ts'
import { eth_signTypedData_v4 } from './eth_signTypedData_v4.ts'
import { personal_sign } from './personal_sign.ts'
import { invalid } from './guards.ts'
import { forwardRead } from './reads.ts'
import { wallet_getPermissions, wallet_requestPermissions, wallet_revokePermissions } from './permissions.ts'
import type { RpcContext, RpcHandler } from './types.ts'

/**
 * Handlers a page rarely needs load with their first request, not in the frame's first route (its
 * 100 KB budget): EIP-5792 (calls.ts), the embedded wallet's estimate and chain switching.
 */
const lazyHandler = <M extends Record<string, RpcHandler>>(load: () => Promise<M>) => {
  const module = lazyModule(load).get
  return (name: keyof M): RpcHandler =>
    async (ctx, params) =>
      (await module())[name]!(ctx, params)
}
const calls = lazyHandler(() => import('./calls.ts'))
const wallet_getCallsStatus = calls('wallet_getCallsStatus')
const wallet_showCallsStatus = calls('wallet_showCallsStatus')
const wallet_getCapabilities = calls('wallet_getCapabilities')
const wallet_sendCalls = calls('wallet_sendCalls')
const eth_estimateGas = lazyHandler(() => import('./eth_estimateGas.ts'))('eth_estimateGas')
// A switch first asks the chain's RPC whether it can be reached (chain/switch.ts): loaded with the first.
const chains = lazyHandler(() => import('./chains.ts'))
const wallet_addEthereumChain = chains('wallet_addEthereumChain')
const wallet_switchEthereumChain = chains('wallet_switchEthereumChain')

/** One handler per method the frame answers (bridge/rpc-methods.ts): a missing one does not compile. */
export const handlers: { readonly [method in FrameMethod]: RpcHandler } = {
  eth_accounts,
  eth_chainId,
  eth_estimateGas,
  eth_requestAccounts,
  eth_sendTransaction,
  eth_signTransaction,
  eth_signTypedData_v4,
  net_version,
  personal_sign,
  wallet_addEthereumChain,
  wallet_getCallsStatus,
  wallet_showCallsStatus,
  wallet_getCapabilities,
  wallet_getPermissions,
  wallet_requestPermissions,
  wallet_revokePermissions,
  wallet_sendCalls,
  wallet_switchEthereumChain,
}

/** Throws 4200 for a method outside the registry, -32602 for params that do not fit its signature. */
export function checkRequest({ method, params }: RpcRequest): void {
  const known = methodOf(method)
  if (!known) throw new Provider.UnsupportedMethodError({ message: `Unsupported method: ${method}` })
  const bad = checkParams(known[0], params)
  if (bad) throw invalid(`Invalid params for ${method}: ${bad}`)
}

/**
 * What the host asks before it sends a request to a browser wallet: checkRequest, and for a chain
 * switch, 4902 unless the app offers that chain. The host page may name no chains of its own; a
 * browser wallet must still not be moved to a chain this app does not offer.
 */
export function checkExternalRequest(ctx: Pick<RpcContext, 'wallet'>, request: RpcRequest): void {
  checkRequest(request)
  if (methodOf(request.method)?.[1] !== 'chain') return
  // checkParams has made it a { chainId } with a hex number.
  const chainId = Number((request.params as [{ chainId: string }])[0].chainId)
  if (!ctx.wallet.chain(chainId)) throw notConfigured(chainId)
}

/**
 * One request from the host: a method outside the registry (bridge/rpc-methods.ts) is 4200, params
 * that do not fit its signature -32602, then its handler runs, or the chain's RPC answers a read.
 */
export function handleRpc(ctx: RpcContext, request: RpcRequest): unknown {
  checkRequest(request)
  const { method, params } = request
  const handler = Object.hasOwn(handlers, method) ? handlers[method as FrameMethod] : undefined
  // A page the user has not connected acts for nobody: signing requests are 4100 (guards.ts).
  if (handler) return handler(ctx.wallet.ui.get().connected ? ctx : { ...ctx, account: () => null }, params)
  if (isRpcRead(method)) return forwardRead(ctx, request)
  throw new Provider.UnsupportedMethodError({ message: `Unsupported method: ${method}` })
}
