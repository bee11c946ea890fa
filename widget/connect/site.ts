import type { Wallet } from '../wallet.ts'

/**
 * The user connected this page ('Connect to <origin>?', SiteConnect.tsx): the host gets the account,
 * a waiting eth_requestAccounts its answer, and the modal closes.
 */
export async function connectSite(wallet: Wallet): Promise<void> {
  const { session } = wallet.ui.get()
  if (!session) return
  const stored = wallet.setSite(true)
  wallet.announce(session)
  wallet.close()
  await stored
}

/**
 * EIP-2255 revoke: this page is forgotten, the session stays for the other pages the user connected;
 * the host sees no account, and a request on screen for this page is closed (answered 4001).
 */
export async function forgetSite(wallet: Wallet): Promise<void> {
  const { session, connected, view } = wallet.ui.get()
  if (!session || session.walletConnect) return
  const stored = wallet.setSite(false)
  if (connected) wallet.host.emit('accountsChanged', [])
  if (view === 'transaction_confirmation') wallet.close()
  await stored
}
