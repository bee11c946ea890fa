import { hostAddress } from '../ui-state.ts'
import type { RpcHandler } from './types.ts'

export const eth_accounts: RpcHandler = ({ wallet }) => {
  const { session } = wallet.ui.get()
  return session ? [hostAddress(session)] : []
}
