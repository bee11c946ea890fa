import { expect, test } from 'vitest'
import { createDummyHash, verifyPassword } from './passwords.ts'

test('the dummy hash is made when the routes are, so the first unknown username costs one scrypt like any other, not two', async () => {
  const dummy = createDummyHash()
  // Long after start-up, as a first login would come.
  await new Promise((resolve) => setTimeout(resolve, 1500))
  const started = performance.now()
  const hash = await dummy()
  expect(performance.now() - started).toBeLessThan(20)
  expect(await verifyPassword('not the random one', hash)).toBe(false)
})
