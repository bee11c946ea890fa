import { expect, test } from 'vitest'
import { chainRefusal } from './core.ts'
import { localChain } from './wallet.fixture.ts'

const app = [localChain(31337), localChain(31338)]

test('a page naming only chains the app lacks is refused with a clear 4900 at the handshake', () => {
  expect(chainRefusal('demo', [1, 8453], app)).toEqual({
    code: 4900,
    message: 'App "demo" offers none of this page\'s chains (1, 8453); it offers 31337, 31338',
  })
})

test("naming none (all the app's chains) or at least one the app offers is not refused", () => {
  expect(chainRefusal('demo', [], app)).toBeUndefined()
  expect(chainRefusal('demo', [1, 31338], app)).toBeUndefined()
  expect(chainRefusal('demo', [31337, 31338], app)).toBeUndefined()
})
