import { numberToHex } from 'viem'
import type { RpcHandler } from './types.ts'

export const eth_chainId: RpcHandler = ({ wallet }) => numberToHex(wallet.chainId())
export const net_version: RpcHandler = ({ wallet }) => String(wallet.chainId())
