import { expect, test } from 'vitest'
import type { WalletDescriptor } from '../../bridge/index.ts'
import { orderWallets } from './wallet-order.ts'

const w = (name: string, installed: boolean, connector: WalletDescriptor['connector'] = 'injected'): WalletDescriptor => ({
  id: name.toLowerCase(),
  name,
  icon: 'data:image/svg+xml,',
  connector,
  installed,
})

test('installed first, the exchange wallet next, WalletConnect last, passport hidden, order kept otherwise', () => {
  const ordered = orderWallets([
    w('WalletConnect', false, 'walletconnect'),
    w('Trust', false),
    w('Passport', true),
    w('Coinbase Wallet', false),
    w('Rabby', true),
    w('MetaMask', true),
  ])
  expect(ordered.map((x) => x.name)).toEqual(['Rabby', 'MetaMask', 'Coinbase Wallet', 'Trust', 'WalletConnect'])
})
