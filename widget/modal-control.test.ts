import { afterEach, expect, test, vi } from 'vitest'
import { createModalControl, resetDelayMs } from './modal-control.ts'
import { createStore } from './store.ts'
import { initialUi } from './ui-state.ts'

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

test('reopened later, it is on home even when the browser has not yet run the reset timer', () => {
  // Chromium throttles timers in a hidden cross-origin frame (about one wake-up a second): the 50 ms
  // reset may not have run when the user opens the modal again. The clock says it is due.
  vi.useFakeTimers()
  const { ui, modal } = setUp()
  modal.close()
  vi.setSystemTime(Date.now() + resetDelayMs + 200) // time passes, the timer does not fire
  modal.open('connect')
  expect(ui.get().page).toBe('home')
  vi.runAllTimers() // the late timer changes nothing afterwards
  expect(ui.get().page).toBe('home')
  expect(ui.get().view).toBe('connect')
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
