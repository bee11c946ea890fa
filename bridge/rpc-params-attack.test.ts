import { describe, expect, test } from 'vitest'
import { methodOf, parseRequest, type ParsedRequest } from './rpc-methods.ts'

/**
 * Red-team cases against the method table that held: what a page can post (a structured clone of
 * its objects) either parses to what it says or is -32602 / 4200, never a throw of another kind.
 */
const alice = '0x000000000000000000000000000000000000a11c'
const parse = (method: string, params: unknown): ParsedRequest | number => {
  try {
    return parseRequest({ method, params: structuredClone(params) as never }, (code, message) => Object.assign(new Error(message), { code }))
  } catch (err) {
    const code = (err as { code?: unknown }).code
    if (typeof code !== 'number') throw err
    return code
  }
}

describe('method names', () => {
  test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'eth_sign', 'eth_sendUnsignedTransaction', 'ETH_CHAINID', 'eth_chainId '])(
    '%s is 4200',
    (method) => {
      expect(methodOf(method)).toBeUndefined()
      expect(parse(method, [])).toBe(4200)
    },
  )
})

describe('typed data a page can post', () => {
  const typed = {
    types: { Mail: [{ name: 'text', type: 'string' }] },
    primaryType: 'Mail',
    domain: { name: 'Site', chainId: 31337 },
    message: { text: 'gm' },
  }

  test('a cycle (structured clone keeps it) is -32602, not a throw', () => {
    const cyclic: Record<string, unknown> = { ...typed, message: { text: 'gm' } }
    ;(cyclic.message as Record<string, unknown>).self = cyclic
    expect(parse('eth_signTypedData_v4', [alice, cyclic])).toBe(-32602)
  })

  test('deep nesting, as text or as an object, is parsed or -32602 within the call, never a stack overflow thrown out', () => {
    const depth = 200_000
    const text = `{"types":{},"primaryType":"A","message":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`
    const asText = parse('eth_signTypedData_v4', [alice, text])
    expect(asText === -32602 || typeof asText === 'object').toBe(true)
    let deep: Record<string, unknown> = {}
    const root = deep
    for (let i = 0; i < 1_000; i++) {
      const next: Record<string, unknown> = {}
      deep.a = next
      deep = next
    }
    const asObject = parse('eth_signTypedData_v4', [alice, { ...typed, message: root }])
    expect(asObject === -32602 || typeof asObject === 'object').toBe(true)
  })

  test('what is shown is read back from the exact text that is signed: duplicate keys and __proto__ cannot tell them apart', () => {
    const text =
      '{"types":{"Mail":[{"name":"text","type":"string"}]},"primaryType":"Mail","message":{"text":"harmless"},"message":{"text":"evil"},"__proto__":{"domain":{"name":"x"}}}'
    const parsed = parse('eth_signTypedData_v4', [alice, text]) as Extract<ParsedRequest, { method: 'eth_signTypedData_v4' }>
    const [, { json, typed: shown }] = parsed.params
    expect(json).toBe(text)
    // Any JSON.parse of the signed text (the wallet service's) reads what the modal shows.
    expect(shown).toEqual(JSON.parse(json))
    expect(shown.message).toEqual({ text: 'evil' })
    expect(shown.domain).toBeUndefined()
  })
})

describe('numbers and quantities', () => {
  test.each([
    ['value', 1],
    ['value', '1'],
    ['value', '0x'],
    ['value', `0x${'f'.repeat(65)}`],
    ['value', '-0x1'],
    ['value', 1n],
    ['nonce', `0x${'f'.repeat(14)}`],
    ['chainId', '0x7a69 '],
    ['gas', '0x1.8'],
    ['to', `${alice}00`],
    ['to', alice.toUpperCase()],
    ['data', '0x123'],
  ])('a transaction with %s = %s is -32602', (field, value) => {
    expect(parse('eth_sendTransaction', [{ to: alice, [field]: value }])).toBe(-32602)
  })

  test('wallet_sendCalls: every call is read, at any place in the list', () => {
    const call = { to: alice, value: '0x1' }
    expect(parse('wallet_sendCalls', [{ calls: [call, call, { to: alice, value: 1 }] }])).toBe(-32602)
    expect(parse('wallet_sendCalls', [{ calls: { 0: call, length: 1 } }])).toBe(-32602)
  })
})
