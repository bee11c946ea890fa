import { ChainDisconnectedError, UnsupportedMethodError } from '../../bridge/error-classes.ts'
import type { RpcRequest } from '../../bridge/index.ts'
import type { ReadPort } from './ports.ts'

/**
 * A method on the read allowlist (bridge/rpc-methods.ts) goes to the current chain's RPC URLs in
 * order, each tried when the one before fails. Nothing else is ever passed to an RPC URL.
 */
export function forwardRead(ctx: ReadPort, { method, params }: RpcRequest): Promise<unknown> {
  const chainId = ctx.wallet.chainId()
  if (!ctx.wallet.chain(chainId)) throw new ChainDisconnectedError({ message: 'Chain not found' })
  return ctx
    .rpc(chainId)
    .request({ method, params: params ?? [] })
    .catch((err: unknown) => {
      // The node does not know it either: to the dapp that is an unsupported method (EIP-1193).
      if ((err as { code?: unknown }).code === -32601) throw new UnsupportedMethodError({ message: `Unsupported method: ${method}` })
      throw err
    })
}
