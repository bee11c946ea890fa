import { expect, test } from 'vitest'
import { alice } from '../wallet.fixture.ts'
import { testContext } from './context.fixture.ts'

/**
 * Red-team findings in the frame (they fail until fixed): the handlers no longer look at their
 * params again, so whatever the method table lets through reaches them as it arrived. A page posts
 * `[, address]` (structured clone keeps the hole), the table's reader never runs on the message.
 */
const tick = () => new Promise((r) => setTimeout(r, 0))

test('personal_sign with a hole for its message is -32602: nothing reaches the modal or the signer', async () => {
  const { wallet, call, calls } = testContext({ session: alice })
  await wallet.restore()
  // biome-ignore lint/suspicious/noSparseArray: the attack is the hole
  const answer = call('personal_sign', structuredClone([, alice.address]))
  await tick()
  // Today the modal opens for an empty message ('0x') the page never sent.
  expect(wallet.ui.get().confirmation).toBeNull()
  expect(await answer).toMatchObject({ code: -32602 })
  expect(calls).toEqual([])
})

test('a chain switch with a hole for its param is -32602, not an internal error', async () => {
  const { wallet, call } = testContext({ session: alice })
  await wallet.restore()
  // biome-ignore lint/suspicious/noSparseArray: the attack is the hole
  expect(await call('wallet_switchEthereumChain', structuredClone([,]))).toMatchObject({ code: -32602 })
  // biome-ignore lint/suspicious/noSparseArray: the attack is the hole
  expect(await call('eth_sendTransaction', structuredClone([,]))).toMatchObject({ code: -32602 })
})
