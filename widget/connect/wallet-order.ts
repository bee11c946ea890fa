import type { WalletDescriptor } from '../../bridge/index.ts'

/** An exchange's own wallet the list puts first among those not installed. */
const exchangeWallet = /coinbase/i
const hidden = /passport/i

/**
 * The wallet list's order: installed browser wallets first, then the exchange wallet, the
 * wallet-connection protocol wallet last, and a wallet called passport hidden.
 */
export function orderWallets(wallets: readonly WalletDescriptor[]): WalletDescriptor[] {
  const rank = (w: WalletDescriptor) => (w.connector === 'walletconnect' ? 3 : w.installed ? 0 : exchangeWallet.test(w.name) ? 1 : 2)
  return wallets
    .filter((w) => !hidden.test(w.name))
    .map((w, i) => ({ w, i }))
    .sort((a, b) => rank(a.w) - rank(b.w) || a.i - b.i)
    .map(({ w }) => w)
}
