import { hostAddress } from '../accounts/active.ts'
import { InvalidParamsError } from '../../bridge/error-classes.ts'
import type { SessionView } from './ports.ts'
import type { RpcHandler } from './types.ts'

/** EIP-2255: the only permission a site can hold here is eth_accounts, once the user connected it. */
function permissions(ctx: SessionView) {
  const { session, connected } = ctx.wallet.ui.get()
  if (!session || !connected) return []
  return [
    {
      parentCapability: 'eth_accounts',
      invoker: ctx.wallet.hostOrigin,
      caveats: [{ type: 'restrictReturnedAccounts', value: [hostAddress(session)] }],
    },
  ]
}

export const wallet_getPermissions: RpcHandler<'wallet_getPermissions'> = (ctx) => permissions(ctx)

export const wallet_requestPermissions: RpcHandler<'wallet_requestPermissions'> = async (ctx, [request]) => {
  if (!('eth_accounts' in request) || Object.keys(request).length !== 1) throw new InvalidParamsError({ message: 'only { eth_accounts: {} } can be requested' })
  await ctx.wallet.requestAccounts()
  return permissions(ctx)
}

/**
 * Revoking eth_accounts forgets this site: the session stays for the other sites the user connected
 * (a paired WalletConnect wallet is disconnected, as before).
 */
export const wallet_revokePermissions: RpcHandler<'wallet_revokePermissions'> = async (ctx, [request]) => {
  if (!('eth_accounts' in request)) throw new InvalidParamsError({ message: 'only eth_accounts can be revoked' })
  const { wallet } = ctx
  const { session, connected, view } = wallet.ui.get()
  if (session?.walletConnect) await wallet.disconnect()
  else if (session) {
    const stored = wallet.setSite(false)
    if (connected) wallet.host.emit('accountsChanged', [])
    // Every request of this page (the frame serves this page only) waiting for the user is answered
    // 4001 and never shown again, whichever modal is open over it; one already being signed runs on.
    ctx.confirmations.rejectAll()
    if (view === 'transaction_confirmation') wallet.close()
    await stored
  }
  return null
}
