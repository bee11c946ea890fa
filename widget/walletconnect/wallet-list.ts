import { mobileWallets, type MobileWallet } from '../../bridge/mobile-wallets.ts'
import coinbase from './icons/coinbase.svg'
import metamask from './icons/metamask.svg'
import rainbow from './icons/rainbow.svg'
import trust from './icons/trust.svg'
import sandbox from './icons/sandbox.svg'
import walletConnect from './icons/walletconnect.svg'

/** A wallet the modal pairs with over WalletConnect: a phone app, the sandbox's wallet page, or any wallet. */
export type PairingWallet = {
  id: string
  name: string
  icon: string
  /** The phone app's links (bridge/mobile-wallets.ts). */
  app?: MobileWallet
  /** A wallet that runs in a browser tab: `<browserLink>?uri=<pairing URI>` pairs it ('Open in Browser'). */
  browserLink?: string
}

const icons: Record<string, string> = { metamask, coinbase, trust, rainbow }

/** The named exchange wallet goes first among the mobile wallets. */
const exchangeFirst = (wallets: readonly MobileWallet[]) => [...wallets].sort((a, b) => Number(b.id === 'coinbase') - Number(a.id === 'coinbase'))

/**
 * The pairing page's wallets: the mobile wallets (the exchange's first), the sandbox's own wallet when the app
 * config names one, and WalletConnect itself last (any wallet that scans the QR).
 */
export function pairingWallets(testWallet: string | null | undefined): PairingWallet[] {
  return [
    ...exchangeFirst(mobileWallets).map((app) => ({ id: app.id, name: app.name, icon: icons[app.id] ?? walletConnect, app })),
    ...(testWallet ? [{ id: 'sandbox', name: 'Sandbox Wallet', icon: sandbox, browserLink: testWallet }] : []),
    { id: 'walletconnect', name: 'WalletConnect', icon: walletConnect },
  ]
}
