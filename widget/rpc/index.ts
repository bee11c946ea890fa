import * as Provider from 'ox/Provider'
import type { RpcRequest } from '../../bridge/index.ts'
import { eth_accounts } from './eth_accounts.ts'
import { eth_chainId, net_version } from './eth_chainId.ts'
import { eth_requestAccounts } from './eth_requestAccounts.ts'
import type { RpcContext, RpcHandler } from './types.ts'

const handlers: Readonly<Record<string, RpcHandler>> = {
  eth_accounts,
  eth_chainId,
  eth_requestAccounts,
  net_version,
}

export function handleRpc(ctx: RpcContext, request: RpcRequest): unknown {
  const handler = Object.hasOwn(handlers, request.method) ? handlers[request.method] : undefined
  if (!handler) throw new Provider.UnsupportedMethodError({ message: `Unsupported method: ${request.method}` })
  return handler(ctx, request.params)
}
