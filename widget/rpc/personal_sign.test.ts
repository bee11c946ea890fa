import { expect, test } from 'vitest'
import { stringToHex } from 'viem'
import { alice } from '../wallet.fixture.ts'
import { testContext } from './context.fixture.ts'

test('the modal gets the exact bytes; hex that is no whole number of bytes is refused', async () => {
  const { wallet, call } = testContext({ session: alice })
  await wallet.restore()
  expect(await call('personal_sign', ['0x3e8', alice.address])).toMatchObject({ code: -32602, message: expect.stringContaining('whole bytes') })
  expect(wallet.ui.get().view).toBeNull()
  void call('personal_sign', ['plain words', alice.address])
  await new Promise((r) => setTimeout(r, 0))
  expect(wallet.ui.get().confirmation?.payload.message).toBe(stringToHex('plain words'))
})
