import * as Provider from 'ox/Provider'
import type { RpcRequest } from '../../bridge/index.ts'
import type { RpcContext } from './types.ts'

/** Methods that would sign with a key or change node state: never passed to a public RPC URL. */
const refused = /^(eth_sign|eth_signTransaction|eth_sendTransaction|eth_signTypedData(_v[134])?|eth_accounts|eth_coinbase)$/

/** Every other eth_* read goes to the current chain's RPC URLs in order, with fallback (SPEC.md section 7). */
export function isRead(method: string): boolean {
  return (method.startsWith('eth_') || method === 'web3_clientVersion' || method === 'net_listening') && !refused.test(method)
}

export function forwardRead(ctx: RpcContext, { method, params }: RpcRequest): Promise<unknown> {
  const chainId = ctx.wallet.chainId()
  if (!ctx.wallet.chain(chainId)) throw new Provider.ChainDisconnectedError({ message: 'Chain not found' })
  return ctx.rpc(chainId)
    .request({ method, params: params ?? [] })
    .catch((err: unknown) => {
      // The node does not know it either: to the dapp that is an unsupported method (EIP-1193).
      if ((err as { code?: unknown }).code === -32601) throw new Provider.UnsupportedMethodError({ message: `Unsupported method: ${method}` })
      throw err
    })
}
