// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import type { AppConfig } from '../../sdk/index.ts'
import { pairingExpiryMs, walletConnectErrorMs } from '../constants.ts'
import { Widget, type WidgetContext } from '../context.ts'
import { testWallet, setUi } from '../wallet.fixture.ts'
import type { WalletConnect } from '../walletconnect/index.ts'
import { QrCode } from './QrCode.tsx'

// 'Scan QR Code' with a scripted WalletConnect: which pairing URI shows, when a new one replaces it,
// what the error line says (a refusal, 'No chains found on connector.', or 'Failed to connect…' for 5 s).

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

type Round = { uri: string; settle: { resolve(): void; reject(e: unknown): void }; cancelled: boolean }

async function page(reconnect: string | null = null) {
  const { wallet } = testWallet()
  await wallet.restore()
  wallet.open('connect')
  setUi(wallet, { reconnect })
  const rounds: Round[] = []
  const walletConnect = {
    async pair() {
      const round = { uri: `wc:${String(rounds.length).padStart(64, '0')}@2`, cancelled: false } as Round
      const approval = new Promise<void>((resolve, reject) => (round.settle = { resolve, reject }))
      rounds.push(round)
      return { uri: round.uri, approval, cancel: () => (round.cancelled = true) }
    },
  } as unknown as WalletConnect
  const config = { walletConnect: { relayUrl: 'ws://x', projectId: 'p', testWallet: 'http://localhost:8787/dev/wallet' } } as AppConfig
  const value = { wallet, config, walletConnect, locale: 'en' } as unknown as WidgetContext
  setUi(wallet, { pairingWallet: 'sandbox' })
  render(
    <Widget.Provider value={value}>
      <QrCode />
    </Widget.Provider>,
  )
  await act(() => vi.advanceTimersByTimeAsync(0))
  const link = () => screen.getByTestId('open-in-browser').getAttribute('href')
  return { wallet, rounds, link }
}

test('the URI shows as soon as it arrives, with Open in Browser on the wallet page; after 5 minutes a new pairing replaces it and the old one is dropped', async () => {
  const { rounds, link } = await page()
  expect(rounds).toHaveLength(1)
  expect(link()).toBe(`http://localhost:8787/dev/wallet?uri=${encodeURIComponent(rounds[0]!.uri)}`)
  await act(() => vi.advanceTimersByTimeAsync(pairingExpiryMs - 1))
  expect(rounds).toHaveLength(1)
  await act(() => vi.advanceTimersByTimeAsync(1))
  expect(rounds).toHaveLength(2)
  expect(rounds[0]!.cancelled).toBe(true)
  expect(link()).toBe(`http://localhost:8787/dev/wallet?uri=${encodeURIComponent(rounds[1]!.uri)}`)
})

test("a refusal says so and pairs again at once; any other failure says 'Failed to connect…' for 5 seconds", async () => {
  const { rounds } = await page()
  await act(async () => rounds[0]!.settle.reject({ code: 5000, message: 'User rejected.' }))
  await act(() => vi.advanceTimersByTimeAsync(0))
  expect(screen.getByTestId('pairing-error').textContent).toBe('Connection rejected in the wallet')
  expect(rounds).toHaveLength(2)

  await act(async () => rounds[1]!.settle.reject(new Error('No chains found on connector.')))
  await act(() => vi.advanceTimersByTimeAsync(0))
  expect(screen.getByTestId('pairing-error').textContent).toBe('No chains found on connector.')

  await act(async () => rounds[2]!.settle.reject(new Error('socket hang up')))
  await act(() => vi.advanceTimersByTimeAsync(0))
  expect(screen.getByTestId('pairing-error').textContent).toBe('Failed to connect, please refresh the page and try again.')
  await act(() => vi.advanceTimersByTimeAsync(walletConnectErrorMs))
  expect(screen.getByTestId('pairing-error').textContent).toBe('')
})

test('approved: the modal closes', async () => {
  const { wallet, rounds } = await page()
  expect(wallet.ui.get().view).toBe('connect')
  await act(async () => rounds[0]!.settle.resolve())
  expect(wallet.ui.get().view).toBeNull()
})

test("a restored session that lacked some of the app's chains: the page asks to pair that wallet again; otherwise no such line", async () => {
  await page('Phone')
  expect(screen.getByTestId('pairing-reconnect').textContent).toBe("Phone is not connected on all of this app's chains. Scan again to reconnect.")
  cleanup()
  await page()
  expect(screen.queryByTestId('pairing-reconnect')).toBeNull()
})
