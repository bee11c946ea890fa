import { expect, test } from 'vitest'
import { createStore, slice } from './store.ts'
import { testWallet } from './wallet.fixture.ts'

test("a slice writes its owner's fields only: another field throws and changes nothing", () => {
  const store = createStore({ a: 1, b: 2 })
  const mine = slice(store, ['a'])
  mine.set({ a: 3 })
  expect(store.get()).toEqual({ a: 3, b: 2 })
  // Past the types, as a module that reached for another's field would.
  expect(() => mine.set({ b: 9 } as never)).toThrow("Not this module's state: b")
  expect(() => mine.set(() => ({ a: 4, b: 9 }) as never)).toThrow("Not this module's state: b")
  expect(store.get()).toEqual({ a: 3, b: 2 })
})

test("the wallet's state is read-only to its readers, and the confirmation queue's part is handed out once", () => {
  const { wallet } = testWallet()
  expect('set' in wallet.ui).toBe(false)
  const claimed = wallet.claimConfirmationState()
  claimed.set({ queued: 2 })
  expect(wallet.ui.get().queued).toBe(2)
  expect(() => wallet.claimConfirmationState()).toThrow('The confirmation state has an owner already')
  expect(() => claimed.set({ view: 'connect' } as never)).toThrow("Not this module's state: view")
})
