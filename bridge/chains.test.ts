import { expect, test } from 'vitest'
import { chainNotOffered, isChainOffered, offeredChains } from './chains.ts'

const app = [{ chainId: 31337 }, { chainId: 31338 }, { chainId: 8453 }]

test('a chain is offered when the app has it and the page, naming chains, names it', () => {
  expect(isChainOffered(31338, [31337, 31338])).toBe(true)
  expect(isChainOffered(1, [31337, 31338])).toBe(false)
  expect(isChainOffered(31338, [31337, 31338], [31337])).toBe(false)
  expect(isChainOffered(31337, [31337, 31338], [31337, 1])).toBe(true)
  expect(isChainOffered(1, [31337], [1])).toBe(false)
})

test("the page's chains are the app's, narrowed to those it names, in the app's order", () => {
  expect(offeredChains(app, [])).toEqual(app)
  expect(offeredChains(app, [8453, 31337, 1])).toEqual([{ chainId: 31337 }, { chainId: 8453 }])
  expect(offeredChains(app, [1])).toEqual([])
})

test('a chain not offered is 4902, in the words the frame has always used', () => {
  expect(chainNotOffered(1)).toEqual({ code: 4902, message: 'Chain 1 is not configured for this app' })
})
