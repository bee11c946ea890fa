import type { RpcHandler } from './types.ts'

/**
 * The account, once the user let this page have it: the connect modal opens when nobody is signed
 * in (the login), or when this page was never connected ('Connect to <origin>?'), and resolves once
 * it is; Cancel is 4001.
 */
export const eth_requestAccounts: RpcHandler<'eth_requestAccounts'> = ({ wallet }) => wallet.requestAccounts()
