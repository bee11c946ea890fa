import type { Wallet } from '../wallet.ts'

export type RpcContext = { wallet: Wallet }
export type RpcHandler = (ctx: RpcContext, params: readonly unknown[] | Record<string, unknown> | undefined) => unknown
