import { expect, test } from 'vitest'
import { createStore, slice } from './store.ts'
import { testWallet } from './wallet.fixture.ts'

/**
 * Red-team findings on "one owner per field" (they fail until fixed): the slice guard looks at the
 * patch's keys only, while the state object every reader gets is the live one and can be written.
 */
test("a slice's update function cannot write another owner's field through the state it is handed", () => {
  const store = createStore({ a: 1, b: 2 })
  const mine = slice(store, ['a'])
  try {
    mine.set((s) => {
      ;(s as { b: number }).b = 9
      return { a: 3 }
    })
  } catch {
    // Refusing the write is a fix too; what must not happen is the write.
  }
  expect(store.get().b).toBe(2)
})

test("a reader of wallet.ui cannot write the connection's fields (the frame gates signing on `connected`)", async () => {
  const { wallet } = testWallet()
  await wallet.restore()
  expect(wallet.ui.get().connected).toBe(false)
  try {
    // Past the types (read-only now), as a module reaching for another's field would.
    ;(wallet.ui.get() as { connected: boolean }).connected = true
  } catch {
    // A frozen state (a TypeError in strict mode) is a fix too.
  }
  expect(wallet.ui.get().connected).toBe(false)
})
