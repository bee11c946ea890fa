import type { RpcHandler } from './types.ts'

/** Opens the connect modal when nobody is logged in and resolves once someone is. */
export const eth_requestAccounts: RpcHandler = ({ wallet }) => wallet.requestAccounts()
