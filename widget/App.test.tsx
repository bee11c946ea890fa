// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { stringToHex } from 'viem'
import { afterEach, expect, test, vi } from 'vitest'
import type { AppConfig } from '../sdk/index.ts'
import { App } from './App.tsx'
import { createConfirmations } from './confirmation.ts'
import { Widget, type WidgetContext } from './context.ts'
import { alice, testWallet, setUi } from './wallet.fixture.ts'

// The modal's closing rules, through the whole app: Escape and a click on the
// backdrop close it unless a confirmation is pending; closing resets the connect page to home 50 ms
// later; the recovery secret downloads as 'wallet-recovery-secret' with the product's own extension.

afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.restoreAllMocks()
})

const config = {
  showPoweredBy: true,
  logoUrl: null,
  useEmailLogin: true,
  google: { enabled: false, clientId: null },
  apple: { enabled: false, clientId: null, redirectUri: null },
  telegram: { enabled: false, botId: null, botUsername: null },
  whatsapp: { enabled: false },
} as AppConfig

async function app(options: Parameters<typeof testWallet>[0] = {}) {
  const t = testWallet(options)
  await t.wallet.restore()
  const confirmations = createConfirmations(t.wallet)
  const value = {
    wallet: t.wallet,
    confirmations,
    client: {} as never,
    config,
    rpc: () => ({}) as never,
    locale: 'en',
    persistent: true,
    walletConnect: null,
    presentation: 'window',
    mode: 'frame',
    secure: null,
  } satisfies WidgetContext
  render(
    <Widget.Provider value={value}>
      <App />
    </Widget.Provider>,
  )
  return { ...t, confirmations }
}

const backdrop = () => screen.getByRole('dialog').parentElement!

for (const [how, close] of [
  ['Escape', () => fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' })],
  ['a click on the backdrop', () => fireEvent.mouseDown(backdrop())],
] as const)
  test(`${how} closes the connect modal; its page resets to home 50 ms later, not sooner`, async () => {
    const { wallet, visible } = await app()
    const accounts = wallet.requestAccounts().catch((e: { code: number }) => e.code)
    act(() => wallet.navigate('wallet'))
    expect(await screen.findByRole('heading', { name: 'Select Your Log In Method' })).toBeTruthy()

    vi.useFakeTimers()
    act(close)
    expect(wallet.ui.get().view).toBe(null)
    expect(visible).toEqual([true, false])
    expect(await accounts).toBe(4001)
    expect(screen.queryByRole('dialog')).toBe(null)
    await act(() => vi.advanceTimersByTimeAsync(49))
    expect(wallet.ui.get()).toMatchObject({ page: 'wallet', history: ['home'] })
    await act(() => vi.advanceTimersByTimeAsync(1))
    expect(wallet.ui.get()).toMatchObject({ page: 'home', history: [] })
  })

test('a pending confirmation: Escape, the backdrop and the close button leave it open and unanswered', async () => {
  const { wallet, confirmations } = await app({ session: alice })
  let answer: unknown = 'pending'
  void confirmations
    .request({
      kind: 'message',
      payload: { from: alice.address, chainId: 31337, message: stringToHex('hello') },
      run: async () => '0xsig',
      rejected: 'Message signing rejected by user',
      failed: 'Failed to sign message',
    })
    .then(
      (v) => (answer = v),
      (e: { code: number }) => (answer = e.code),
    )
  expect(await screen.findByRole('heading', { name: 'Sign Message' })).toBeTruthy()

  vi.useFakeTimers()
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' })
  fireEvent.keyDown(window, { key: 'Escape' })
  fireEvent.mouseDown(backdrop())
  fireEvent.click(screen.getByRole('button', { name: 'Close' }))
  await act(() => vi.advanceTimersByTimeAsync(1000))
  expect(wallet.ui.get()).toMatchObject({ view: 'transaction_confirmation', confirmation: { status: 'idle' } })
  expect(screen.getByRole('heading', { name: 'Sign Message' })).toBeTruthy()
  expect(answer).toBe('pending')

  // Reject still answers it (4001) and closes.
  fireEvent.click(screen.getByRole('button', { name: 'Reject' }))
  await act(() => vi.advanceTimersByTimeAsync(0))
  expect(answer).toBe(4001)
  expect(wallet.ui.get().view).toBe(null)
})

test("Download saves the recovery secret as 'wallet-recovery-secret.walletkit', holding the secret", async () => {
  const { wallet } = await app({ session: alice })
  const secret = `0x${'ab'.repeat(32)}`
  const blobs = new Map<string, Blob>()
  let n = 0
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:test/${++n}`
    blobs.set(url, blob as Blob)
    return url
  })
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  const saved: { name: string; href: string }[] = []
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.getAttribute('href') ?? '' })
  })
  act(() => {
    wallet.open('connect')
    setUi(wallet, { secret0: secret })
    wallet.navigate('wallet-created')
  })
  expect(screen.getByRole('heading', { name: 'Wallet Created Successfully!' })).toBeTruthy()
  fireEvent.click(await screen.findByRole('button', { name: 'Download' }))
  expect(saved).toHaveLength(1)
  expect(saved[0]!.name).toBe('wallet-recovery-secret.walletkit')
  expect(await blobs.get(saved[0]!.href)!.text()).toBe(secret)
})
