import { hostAddress } from '../accounts/active.ts'
import type { RpcHandler } from './types.ts'

/** The account, to a page the user connected only (connection.ts): any other page sees none. */
export const eth_accounts: RpcHandler<'eth_accounts'> = ({ wallet }) => {
  const { session, connected } = wallet.ui.get()
  return session && connected ? [hostAddress(session)] : []
}
