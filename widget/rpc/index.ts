import { InvalidParamsError, UnauthorizedError, UnsupportedMethodError } from '../../bridge/error-classes.ts'
import { ErrorCode, parseRequest as parse, type Address, type FrameMethod, type ParsedRequest, type RpcRequest } from '../../bridge/index.ts'
import { sameAddress } from '../../bridge/rpc-params.ts'
import type { Account } from '../accounts/account.ts'
import { lazyModule } from '../lazy-module.ts'
import { eth_accounts } from './eth_accounts.ts'
import { eth_chainId, net_version } from './eth_chainId.ts'
import { eth_requestAccounts } from './eth_requestAccounts.ts'
import { wallet_getPermissions, wallet_requestPermissions, wallet_revokePermissions } from './permissions.ts'
import { forwardRead } from './reads.ts'
import type { RequestContext, RpcContext, RpcHandler } from './types.ts'

/**
 * The frame core's RPC: it answers eth_chainId, eth_accounts, net_version, the permissions and the
 * chain's reads with what it imports here, none of which loads React, viem, the confirmation or
 * fee code, or any screen. A handler that needs those (signing, transactions, EIP-5792 calls, the
 * embedded wallet's estimate, chain switching) loads with its method's first request.
 */
type Handlers = { readonly [M in FrameMethod]: RpcHandler<M> }
const lazyHandler = <T extends Partial<Handlers>>(load: () => Promise<T>) => {
  const module = lazyModule(load).get
  return <M extends FrameMethod & keyof T>(name: M): RpcHandler<M> =>
    async (ctx, params) =>
      ((await module())[name] as Handlers[M])(ctx, params)
}
const calls = lazyHandler(() => import('./calls.ts'))
const transactions = lazyHandler(() => import('./eth_sendTransaction.ts'))
// A switch first asks the chain's RPC whether it can be reached (chain/switch.ts): loaded with the first.
const chains = lazyHandler(() => import('./chains.ts'))
const walletConnect = lazyHandler(() => import('./wallet_connect.ts'))

/** One handler per method the frame answers (bridge/rpc-methods.ts): a missing one does not compile. */
export const handlers: Handlers = {
  eth_accounts,
  eth_chainId,
  eth_estimateGas: lazyHandler(() => import('./eth_estimateGas.ts'))('eth_estimateGas'),
  eth_requestAccounts,
  eth_sendTransaction: transactions('eth_sendTransaction'),
  eth_signTransaction: transactions('eth_signTransaction'),
  eth_signTypedData_v4: lazyHandler(() => import('./eth_signTypedData_v4.ts'))('eth_signTypedData_v4'),
  net_version,
  personal_sign: lazyHandler(() => import('./personal_sign.ts'))('personal_sign'),
  wallet_addEthereumChain: chains('wallet_addEthereumChain'),
  wallet_getCallsStatus: calls('wallet_getCallsStatus'),
  wallet_showCallsStatus: calls('wallet_showCallsStatus'),
  wallet_getCapabilities: calls('wallet_getCapabilities'),
  wallet_getPermissions,
  wallet_requestPermissions,
  wallet_revokePermissions,
  wallet_sendCalls: calls('wallet_sendCalls'),
  wallet_switchEthereumChain: chains('wallet_switchEthereumChain'),
  wallet_connect: walletConnect('wallet_connect'),
  wallet_disconnect: walletConnect('wallet_disconnect'),
}

/** The frame's errors for a request the method table refuses: the bridge's classes, with the table's words. */
const refusal = (code: number, message: string) =>
  code === ErrorCode.unsupportedMethod ? new UnsupportedMethodError({ message }) : new InvalidParamsError({ message })

/** Parses a request once (bridge/rpc-methods.ts): 4200 for a method outside the table, -32602 for params that do not fit. */
const parseRequest = (request: RpcRequest): ParsedRequest => parse(request, refusal)

/**
 * One request from the host, parsed once: its handler gets the typed params and who this page acts
 * for, or the chain's RPC answers a read.
 */
export function handleRpc(ctx: RpcContext, request: RpcRequest): unknown {
  const { method, params } = parseRequest(request)
  if (!Object.hasOwn(handlers, method)) return forwardRead(ctx, { method, params: params as readonly unknown[] })
  const handler = handlers[method as FrameMethod] as RpcHandler<FrameMethod>
  // A page the user has not connected acts for nobody. Asked each time, not once: a page that gives
  // up its connection while its request is being prepared has it refused before it is shown.
  const account = () => (ctx.wallet.ui.get().connected ? ctx.account() : null)
  const forRequest: RequestContext = { ...ctx, account, signer: (address) => signer(account, address) }
  return handler(forRequest, params as never)
}

/** Who signs for the page (types.ts RequestContext `signer`): 4100 for a page that acts for nobody, or names another account. */
function signer(account: () => Account | null, address?: Address | null): Account {
  const acting = account()
  if (!acting) throw new UnauthorizedError({ message: 'Not connected: call eth_requestAccounts first' })
  if (address != null && !sameAddress(address, acting.address)) throw new UnauthorizedError({ message: `Account ${address} is not authorised` })
  return acting
}
