// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import type { WalletDescriptor } from '../../bridge/index.ts'
import type { AppConfig } from '../../sdk/index.ts'
import type { Wallet } from '../wallet.ts'
import { Home } from './Home.tsx'
import { connectConfig, renderConnect } from './connect.fixture.tsx'
import { setUi } from '../wallet.fixture.ts'

// The connect home's rules: a social or messaging-app button only for a provider app config
// enables, no e-mail login when app config turns it off, the first 2 wallets (1 on a phone), and an
// error line that clears itself after 3 s.

const desktopWidth = window.innerWidth
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: desktopWidth })
})

const providers = {
  google: { enabled: true, clientId: 'g', scriptUrl: null },
  apple: { enabled: true, clientId: 'a', redirectUri: '/cb', scriptUrl: null },
  telegram: { enabled: true, botId: '7', botUsername: 'bot', scriptUrl: null },
  whatsapp: { enabled: true },
} as const
const labels = { google: 'Google', apple: 'Apple', telegram: 'Telegram', whatsapp: 'Whatsapp' } as const
type Provider = keyof typeof providers

/** Every provider block filled in as an app would, with only `on` enabled. */
function onlyEnabled(on: readonly Provider[]): Partial<AppConfig> {
  const blocks = Object.entries(providers).map(([p, block]) => [p, { ...block, enabled: on.includes(p as Provider) }])
  return Object.fromEntries(blocks) as Partial<AppConfig>
}
const loginButtons = () =>
  screen
    .queryAllByRole('button', { name: /^Continue with / })
    .map((b) => b.getAttribute('aria-label'))
    .sort()

test.each(Object.keys(providers) as Provider[])('only %s enabled: its button alone shows, the others (configured, but off) do not', async (p) => {
  await renderConnect(<Home />, { config: connectConfig(onlyEnabled([p])) })
  expect(loginButtons()).toEqual([`Continue with ${labels[p]}`])
})

test('every provider off: no social or messaging-app button; all on: all four', async () => {
  await renderConnect(<Home />, { config: connectConfig(onlyEnabled([])) })
  expect(loginButtons()).toEqual([])
  cleanup()
  await renderConnect(<Home />, { config: connectConfig(onlyEnabled(['google', 'apple', 'telegram', 'whatsapp'])) })
  expect(loginButtons()).toEqual(['Continue with Apple', 'Continue with Google', 'Continue with Telegram', 'Continue with Whatsapp'])
})

test('useEmailLogin false: no e-mail field, no Continue, no OR divider; true: all three', async () => {
  const withSocial = onlyEnabled(['google'])
  await renderConnect(<Home />, { config: connectConfig({ ...withSocial, useEmailLogin: false }) })
  expect(screen.queryByPlaceholderText('Enter your email')).toBeNull()
  expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull()
  expect(screen.queryByRole('separator')).toBeNull()
  // The other sign-ins stay.
  expect(loginButtons()).toEqual(['Continue with Google'])
  expect(screen.getByRole('button', { name: 'More Options' })).toBeTruthy()
  cleanup()
  await renderConnect(<Home />, { config: connectConfig({ ...withSocial, useEmailLogin: true }) })
  expect(screen.getByPlaceholderText('Enter your email')).toBeTruthy()
  expect(screen.getByRole('button', { name: 'Continue' })).toBeTruthy()
  expect(screen.getByRole('separator').textContent).toBe('OR')
})

const wallet = (id: string, installed = true): WalletDescriptor => ({
  id,
  name: `Wallet ${id}`,
  icon: 'data:image/svg+xml,<svg/>',
  connector: 'injected',
  installed,
})
const shownWallets = () => screen.queryAllByRole('button', { name: /^Wallet / }).map((b) => b.getAttribute('aria-label'))
const withWallets = (n: number) => ({ setup: (w: Wallet) => setUi(w, { wallets: Array.from({ length: n }, (_, i) => wallet(String(i + 1))) }) })

test.each([
  ['a desktop (480 px)', ['Wallet 1', 'Wallet 2'], 480],
  ['a desktop (1280 px)', ['Wallet 1', 'Wallet 2'], 1280],
  ['a phone (479 px)', ['Wallet 1'], 479],
  ['a phone (390 px)', ['Wallet 1'], 390],
])('home on %s shows %j of 4 wallets, and More Options', async (_, expected, width) => {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width })
  await renderConnect(<Home />, withWallets(4))
  expect(shownWallets()).toEqual(expected)
  expect(screen.getByRole('button', { name: 'More Options' })).toBeTruthy()
})

test('a single wallet shows alone on a desktop', async () => {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: 1280 })
  await renderConnect(<Home />, withWallets(1))
  expect(shownWallets()).toEqual(['Wallet 1'])
})

const errorLines = () =>
  screen
    .getAllByRole('alert')
    .map((a) => a.textContent)
    .join('')

test("the e-mail error line (the server's message) is still there at 2.9 s and gone at 3.1 s", async () => {
  vi.useFakeTimers()
  const loginOtp = vi.fn(async () => Promise.reject(new Error('Too many codes requested')))
  await renderConnect(<Home />, { client: { auth: { loginOtp } } })
  fireEvent.change(screen.getByPlaceholderText('Enter your email'), { target: { value: 'a@example.com' } })
  await act(async () => void fireEvent.submit(screen.getByPlaceholderText('Enter your email').closest('form')!))
  expect(errorLines()).toBe('Too many codes requested')
  await act(() => vi.advanceTimersByTimeAsync(2900))
  expect(errorLines()).toBe('Too many codes requested')
  await act(() => vi.advanceTimersByTimeAsync(200))
  expect(errorLines()).toBe('')
})

test("'Invalid email' too clears after 3 s", async () => {
  vi.useFakeTimers()
  await renderConnect(<Home />, { client: { auth: { loginOtp: vi.fn() } } })
  fireEvent.change(screen.getByPlaceholderText('Enter your email'), { target: { value: 'nope' } })
  await act(async () => void fireEvent.submit(screen.getByPlaceholderText('Enter your email').closest('form')!))
  expect(errorLines()).toBe('Invalid email')
  await act(() => vi.advanceTimersByTimeAsync(2900))
  expect(errorLines()).toBe('Invalid email')
  await act(() => vi.advanceTimersByTimeAsync(200))
  expect(errorLines()).toBe('')
})
