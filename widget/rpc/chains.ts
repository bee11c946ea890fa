import { switchChain } from '../chain/switch.ts'
import type { RpcHandler } from './types.ts'

/** 4902 for a chain the app does not configure, 4901 for one that cannot be reached; chainChanged on success. */
export const wallet_switchEthereumChain: RpcHandler<'wallet_switchEthereumChain'> = async (ctx, [{ chainId }]) => {
  await switchChain(ctx, Number(chainId))
  return null
}

/** Only the app's configured chains can be "added": adding one switches to it, as wallets do. */
export const wallet_addEthereumChain: RpcHandler<'wallet_addEthereumChain'> = async (ctx, [{ chainId }]) => {
  await switchChain(ctx, Number(chainId))
  return null
}
