import { switchChain } from '../chain/switch.ts'
import { invalid, numberParam, positional } from './guards.ts'
import type { RpcHandler } from './types.ts'

function chainIdParam(params: Parameters<RpcHandler>[1]): number {
  const [arg] = positional(params, 1)
  if (typeof arg !== 'object' || arg === null) throw invalid('expected { chainId }')
  const chainId = numberParam((arg as { chainId?: unknown }).chainId, 'chainId')
  if (chainId <= 0) throw invalid('chainId must be a positive hex number')
  return chainId
}

/** 4902 for a chain the app does not configure, 4901 for one that cannot be reached; chainChanged on success. */
export const wallet_switchEthereumChain: RpcHandler = async (ctx, params) => {
  await switchChain(ctx, chainIdParam(params))
  return null
}

/** Only the app's configured chains can be "added": adding one switches to it, as wallets do. */
export const wallet_addEthereumChain: RpcHandler = async (ctx, params) => {
  await switchChain(ctx, chainIdParam(params))
  return null
}
