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
