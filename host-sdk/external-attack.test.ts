import { describe, expect, test } from 'vitest'
import { isChainOffered, parseRequest } from '../bridge/index.ts'
import { createExternal } from './external.ts'
import { createProvider } from './provider.ts'

/**
 * Red-team cases that held: a page trying to get a request past the host's check that means
 * something else to the browser wallet or to the frame.
 */
const offered = [31337]
const external = createExternal(
  () => {},
  () => {},
  () => Promise.reject(new Error('no wallet frame in this test')),
)
const outcome = (run: () => void): string | number => {
  try {
    run()
    return 'passed'
  } catch (err) {
    return (err as { code?: number }).code ?? 'threw'
  }
}
const hostSays = (chainId: unknown) => outcome(() => external.check({ method: 'wallet_switchEthereumChain', params: [{ chainId }] as never }, offered))
/** What the frame decides for the same switch: the table's parse, then the one "is it offered" rule. */
const frameSays = (chainId: unknown) =>
  outcome(() => {
    const parsed = parseRequest({ method: 'wallet_switchEthereumChain', params: structuredClone([{ chainId }]) as never }, (code) =>
      Object.assign(new Error(), { code }),
    )
    const id = Number((parsed.params as [{ chainId: string }])[0].chainId)
    if (!isChainOffered(id, offered)) throw Object.assign(new Error(), { code: 4902 })
  })

describe('chain ids at the edges: the host and the frame decide alike, and only the offered chain passes', () => {
  const cases: [unknown, string | number][] = [
    ['0x7a69', 'passed'],
    ['0x7A69', 'passed'],
    // Leading zeros name the same number on both sides (Number), up to 13 digits.
    ['0x07a69', 'passed'],
    [`0x${'0'.repeat(9)}7a69`, 'passed'],
    [`0x${'0'.repeat(10)}7a69`, -32602],
    ['0x0', -32602],
    ['0x', -32602],
    ['-0x7a69', -32602],
    ['0X7a69', -32602],
    [' 0x7a69', -32602],
    ['0x7a69\u0000', -32602],
    ['0x7a69 ', -32602],
    ['31337', -32602],
    [31337, -32602],
    [31337n, -32602],
    [null, -32602],
    [{ toString: () => '0x7a69' }, -32602],
    // 2^53 + 31337: past a double's precision, refused before any Number() could round it.
    [`0x${(2n ** 53n + 31337n).toString(16)}`, -32602],
    [`0x${'f'.repeat(64)}`, -32602],
    ['0x1', 4902],
    ['0x7a6a', 4902],
  ]
  test.each(cases)('chainId %s', (chainId, expected) => {
    // A function cannot cross postMessage at all; the frame never sees that one.
    if (typeof chainId !== 'object' || chainId === null) expect(frameSays(chainId)).toBe(expected)
    expect(hostSays(chainId)).toBe(expected)
  })
})

describe("the host's one copy", () => {
  test('a Proxy, a function or a symbol in the params is -32602 and nothing is sent', async () => {
    const sent: unknown[] = []
    const { provider } = createProvider([], async (request) => sent.push(request))
    const code = (params: unknown) =>
      provider.request({ method: 'personal_sign', params: params as never }).then(
        () => 'sent',
        (e: { code: number }) => e.code,
      )
    const alice = '0x000000000000000000000000000000000000a11c'
    expect(await code(new Proxy(['0x6869', alice], {}))).toBe(-32602)
    expect(await code([{ toJSON: () => '0x6869' }, alice])).toBe(-32602)
    expect(await code([Symbol('0x6869'), alice])).toBe(-32602)
    expect(sent).toEqual([])
  })

  test('an own __proto__ key is data, never a prototype: a field it names is not read through it', () => {
    const tx = JSON.parse('{"to":"0x000000000000000000000000000000000000a11c","__proto__":{"chainId":"0x1","data":"nothex"}}')
    const parsed = parseRequest({ method: 'eth_sendTransaction', params: structuredClone([tx]) }, () => new Error())
    const [read] = parsed.params as [Record<string, unknown>]
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype)
    expect(read.chainId).toBeUndefined()
    expect(read.data).toBeUndefined()
    // And the browser-wallet route checks the same: a chain in __proto__ does not pass as a switch.
    const viaProto = JSON.parse('[{"__proto__":{"chainId":"0x7a69"}}]')
    expect(outcome(() => external.check({ method: 'wallet_switchEthereumChain', params: viaProto }, offered))).toBe(-32602)
  })
})
