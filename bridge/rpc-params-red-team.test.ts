import { describe, expect, test, vi } from 'vitest'
import { parseRequest } from './rpc-methods.ts'

/**
 * Red-team findings against the method table (they fail until the readers are fixed). A page's
 * params cross postMessage by structured clone, which keeps an array's holes: `[, address]` arrives
 * as a two-item list whose first item is missing, not undefined.
 */
const alice = '0x000000000000000000000000000000000000a11c'
const refused = (method: string, params: unknown) => {
  try {
    parseRequest({ method, params: structuredClone(params) as never }, (code, message) => Object.assign(new Error(message), { code }))
    return 'accepted'
  } catch (err) {
    return (err as { code?: number }).code
  }
}

describe('a hole in the params skips its reader', () => {
  test('a missing required positional param (a hole) is -32602, as undefined is', () => {
    // Holes on purpose: what a page can post.
    const holes: [string, unknown][] = [
      // biome-ignore lint/suspicious/noSparseArray: the attack is the hole
      ['personal_sign', [, alice]],
      // biome-ignore lint/suspicious/noSparseArray: the attack is the hole
      ['eth_signTypedData_v4', [alice, ,]],
      // biome-ignore lint/suspicious/noSparseArray: the attack is the hole
      ['eth_sendTransaction', [,]],
      // biome-ignore lint/suspicious/noSparseArray: the attack is the hole
      ['wallet_switchEthereumChain', [,]],
      // biome-ignore lint/suspicious/noSparseArray: the attack is the hole
      ['wallet_requestPermissions', [,]],
    ]
    for (const [method, params] of holes) {
      // The same params with undefined instead of the hole are refused today.
      expect(refused(method, Array.from(params as unknown[])), `${method} with undefined`).toBe(-32602)
      expect(refused(method, params), `${method} with a hole`).toBe(-32602)
    }
  })

  test('a hole in wallet_sendCalls calls is -32602, as an undefined call is', () => {
    const call = { to: alice, value: '0x1' }
    expect(refused('wallet_sendCalls', [{ calls: [undefined, call] }])).toBe(-32602)
    // biome-ignore lint/suspicious/noSparseArray: the attack is the hole
    expect(refused('wallet_sendCalls', [{ calls: [, call] }])).toBe(-32602)
  })
})

describe('a huge sparse list costs the frame its main thread', () => {
  // Structured clone copies a list of 10^8 holes at once; the readers then visit every index (the
  // frame, and the secure window on its event loop, freeze for seconds: 2^32 - 1 holes, minutes).
  const huge = () => {
    const list: unknown[] = []
    list.length = 100_000_000
    return list
  }
  const timed = (method: string, params: unknown) => {
    const start = performance.now()
    const code = refused(method, params)
    return { code, fast: performance.now() - start < 200 }
  }

  test('wallet_sendCalls with 10^8 calls (holes) is -32602 at once: a wallet takes 1 to 10', () => {
    expect(timed('wallet_sendCalls', [{ calls: huge() }])).toEqual({ code: -32602, fast: true })
  })

  test('wallet_getCapabilities with 10^8 chain ids (holes) is -32602 at once', () => {
    expect(timed('wallet_getCapabilities', [alice, huge()])).toEqual({ code: -32602, fast: true })
  })
})

describe('typed data that grows when written as JSON', () => {
  // A list of holes costs nothing to post and nothing to clone, but JSON writes each as "null,":
  // 10^8 of them took 25 s and 2 GB to become a 500 MB text, accepted, then parsed and written again
  // for the modal. The wallet service signs at most 64 KB of typed data.
  test('typed data whose JSON would pass 64 KB is -32602, refused before that text is ever written', () => {
    const list: unknown[] = []
    list.length = 10_000_000
    const typed = { types: { A: [{ name: 'a', type: 'uint8[]' }] }, primaryType: 'A', message: { a: list } }
    // Every JSON text written on the way, by length: none may be the 50 MB one.
    const written: number[] = []
    const stringify = JSON.stringify
    const spy = vi.spyOn(JSON, 'stringify').mockImplementation((...args: Parameters<typeof JSON.stringify>) => {
      const text = stringify(...args)
      written.push(text?.length ?? 0)
      return text
    })
    try {
      expect(refused('eth_signTypedData_v4', [alice, typed])).toBe(-32602)
    } finally {
      spy.mockRestore()
    }
    expect(written.filter((length) => length > 64 * 1024)).toEqual([])
  })

  test('typed data posted as text over 64 KB is -32602; just under it is read', () => {
    const typed = (pad: string) => JSON.stringify({ types: { A: [{ name: 'a', type: 'string' }] }, primaryType: 'A', message: { a: pad } })
    expect(refused('eth_signTypedData_v4', [alice, typed('x'.repeat(64 * 1024))])).toBe(-32602)
    expect(refused('eth_signTypedData_v4', [alice, typed('x'.repeat(60 * 1024))])).toBe('accepted')
  })
})
