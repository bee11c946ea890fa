import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { back, createModalControl, forward, home, isPageOf, resetDelayMs } from './modal-control.ts'
import { createStore } from './store.ts'
import { initialUi, pages } from './ui-state.ts'
import { alice, testWallet } from './wallet.fixture.ts'

afterEach(() => {
  vi.useRealTimers()
})

function setUp() {
  const ui = createStore(initialUi)
  const modal = createModalControl(ui, { setVisible: () => {} })
  modal.open('connect')
  modal.navigate('wallet-created')
  return { ui, modal }
}

test('reopened within 50 ms of closing, the modal keeps its page', () => {
  vi.useFakeTimers()
  const { ui, modal } = setUp()
  modal.close()
  vi.advanceTimersByTime(resetDelayMs - 1)
  modal.open('connect')
  expect(ui.get().page).toBe('wallet-created')
})

test('a session that ends within 50 ms of closing sends the closed modal home at once', () => {
  vi.useFakeTimers()
  const { ui, modal } = setUp()
  modal.close()
  modal.sessionEnded()
  modal.open('connect')
  expect(ui.get().page).toBe('home')
})

test('a session that ends while the modal is open leaves its page alone', () => {
  const { ui, modal } = setUp()
  modal.sessionEnded()
  expect(ui.get().page).toBe('wallet-created')
})

describe('one navigator for every modal', () => {
  beforeEach(() => vi.useFakeTimers())

  test('forward pushes, back pops, an empty history goes home; moves carry their direction', () => {
    let at = forward(forward(home, 'onramp'), 'select-crypto')
    expect(at).toEqual({ page: 'select-crypto', history: ['home', 'onramp'], direction: 'forward' })
    at = back(at)
    expect(at).toEqual({ page: 'onramp', history: ['home'], direction: 'back' })
    expect(back(back(back(at)))).toEqual({ page: 'home', history: [], direction: 'back' })
  })

  test("each modal has its pages, starting on home; 'Scan QR Code' is the connect modal's", () => {
    for (const list of Object.values(pages)) expect(list[0]).toBe('home')
    expect(isPageOf('profile', 'receive')).toBe(true)
    expect(isPageOf('connect', 'receive')).toBe(false)
    expect(isPageOf('connect', 'qr-code')).toBe(true)
    expect(isPageOf('profile', 'qr-code')).toBe(false)
    expect(isPageOf('profile', 'smart-account')).toBe(true)
    expect(isPageOf('connect', 'smart-account')).toBe(false)
  })

  test('the profile uses the same back stack: Receive, back, Buy, pick a crypto, back to Buy; closing resets to home after 50 ms', async () => {
    const { wallet } = testWallet({ session: alice })
    await wallet.restore()
    wallet.open('profile')
    wallet.navigate('receive')
    wallet.back()
    wallet.navigate('onramp')
    wallet.navigate('select-crypto')
    wallet.back()
    expect(wallet.ui.get()).toMatchObject({ page: 'onramp', history: ['home'], direction: 'back' })
    wallet.close()
    await vi.advanceTimersByTimeAsync(50)
    expect(wallet.ui.get()).toMatchObject({ page: 'home', history: [] })
  })

  test('opening another modal starts it on its home, not on the page another modal was on', () => {
    const { wallet } = testWallet()
    wallet.open('connect')
    wallet.navigate('otp')
    wallet.open('chain')
    expect(wallet.ui.get()).toMatchObject({ view: 'chain', page: 'home', history: [] })
  })
})
