// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, expect, test } from 'vitest'
import type { WalletDescriptor } from '../../bridge/index.ts'
import { Widget, type WidgetContext } from '../context.ts'
import { testWallet, setUi } from '../wallet.fixture.ts'
import type { WalletConnect } from '../walletconnect/index.ts'
import { Home } from './Home.tsx'
import { connectConfig } from './connect.fixture.tsx'

// The connect home's wallet shortcuts hold the modal's mobile wallets where the list puts one
// there (no browser wallet, or a phone): picking it opens 'Scan QR Code' for that wallet.

const desktopWidth = window.innerWidth
afterEach(() => {
  cleanup()
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: desktopWidth })
})

const rabby: WalletDescriptor = { id: 'rabby', name: 'Rabby', icon: 'data:image/svg+xml,<svg/>', connector: 'injected', installed: true }

async function home({ width, wallets }: { width: number; wallets: WalletDescriptor[] }) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width })
  const { wallet } = testWallet()
  await wallet.restore()
  wallet.open('connect')
  setUi(wallet, { wallets })
  const config = connectConfig({ walletConnect: { relayUrl: 'ws://127.0.0.1:1', projectId: 'p', testWallet: null } })
  const value = {
    wallet,
    client: {},
    config,
    locale: 'en',
    presentation: 'frame',
    mode: 'frame',
    persistent: true,
    walletConnect: {} as WalletConnect,
    secure: null,
  }
  render(
    <Widget.Provider value={value as unknown as WidgetContext}>
      <Home />
    </Widget.Provider>,
  )
  return wallet
}

const walletButtons = () =>
  screen
    .getAllByRole('button')
    .map((b) => b.getAttribute('aria-label'))
    .filter((name) => name && /Wallet|Rabby|MetaMask|Rainbow/.test(name))

test('no browser wallet on a desktop: the first two mobile wallets (the exchange one first); one opens the QR page for it', async () => {
  const wallet = await home({ width: 1280, wallets: [] })
  await screen.findByRole('button', { name: 'Coinbase Wallet' })
  expect(walletButtons()).toEqual(['Coinbase Wallet', 'MetaMask'])
  await act(async () => screen.getByRole('button', { name: 'Coinbase Wallet' }).click())
  expect(wallet.ui.get()).toMatchObject({ page: 'qr-code', history: ['home'], pairingWallet: 'coinbase' })
})

test('a browser wallet on a desktop comes first, a mobile wallet second; on a phone the mobile wallet alone', async () => {
  await home({ width: 1280, wallets: [rabby] })
  await screen.findByRole('button', { name: 'Coinbase Wallet' })
  expect(walletButtons()).toEqual(['Rabby', 'Coinbase Wallet'])
  cleanup()
  await home({ width: 390, wallets: [rabby] })
  await screen.findByRole('button', { name: 'Coinbase Wallet' })
  expect(walletButtons()).toEqual(['Coinbase Wallet'])
})

test('home first drawn while the frame is hidden (no width) follows the width the frame is shown at', async () => {
  await home({ width: 0, wallets: [rabby] })
  await screen.findByRole('button', { name: 'Coinbase Wallet' })
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: 1280 })
  await act(async () => void window.dispatchEvent(new Event('resize')))
  await screen.findByRole('button', { name: 'Rabby' })
  expect(walletButtons()).toEqual(['Rabby', 'Coinbase Wallet'])
})
