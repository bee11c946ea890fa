import type { RpcHandler } from './types.ts'

/** The active chain, as a hex quantity (no viem in the frame core for one conversion). */
export const eth_chainId: RpcHandler<'eth_chainId'> = ({ wallet }) => `0x${wallet.chainId().toString(16)}`
export const net_version: RpcHandler<'net_version'> = ({ wallet }) => String(wallet.chainId())
