import { describe, expect, test } from 'vitest'
import { parseRequest } from './rpc-methods.ts'
import { calls, chain, chainIds, isAddress, isHash, isHexBytes, isQuantity, Refusal, transaction, typedData, type Param } from './rpc-params.ts'

const a = '0x000000000000000000000000000000000000dEaD'
const typed = { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: {} }

/** Why `param` refuses `value`, or 'ok'. */
const reason = <T>(param: Param<T>, value: unknown) => {
  try {
    param(value)
    return 'ok'
  } catch (err) {
    return err instanceof Refusal ? err.reason : `threw ${String(err)}`
  }
}

describe('the hex shapes, written once', () => {
  test.each([
    [a, true, true, true],
    [a.toLowerCase(), true, true, true],
    ['0x', false, true, false],
    ['0x0', false, false, true],
    [`0x${'f'.repeat(64)}`, false, true, true],
    [`0x${'f'.repeat(65)}`, false, false, false],
    ['0xg0', false, false, false],
    [' 0x00', false, false, false],
    [12, false, false, false],
  ])('%j: address %s, bytes %s, quantity %s', (value, address, bytes, quantity) => {
    expect([isAddress(value), isHexBytes(value), isQuantity(value)]).toEqual([address, bytes, quantity])
  })
})

describe('a hash and a bounded quantity, on the same pattern', () => {
  test.each([
    [`0x${'aB'.repeat(32)}`, true],
    [`0x${'a'.repeat(63)}`, false],
    [`0x${'a'.repeat(65)}`, false],
    [`0x${'g'.repeat(64)}`, false],
    [` 0x${'a'.repeat(64)}`, false],
  ])('%j: hash %s', (value, hash) => expect(isHash(value)).toBe(hash))
  test.each([
    ['0x1', true],
    [`0x${'F'.repeat(15)}`, true],
    [`0x${'f'.repeat(16)}`, false],
    ['0x', false],
    ['0x1g', false],
  ])('%j: a quantity of at most 15 digits %s', (value, quantity) => expect(isQuantity(value, 15)).toBe(quantity))
})

describe('a transaction request: its shape is checked before any account rule', () => {
  test.each([
    [null, 'must be an object'],
    [[], 'must be an object'],
    [{ to: 'nope' }, '.to must be an address'],
    [{ to: a, chainId: `0x${'f'.repeat(40)}` }, '.chainId must be a hex number below 2^52'],
    [{ to: a, chainId: `0x${'f'.repeat(14)}` }, '.chainId must be a hex number below 2^52'],
    [{ to: a, nonce: 7 }, '.nonce must be a hex quantity'],
    [{ to: a, value: '1.5' }, '.value must be a hex quantity'],
    [{ to: a, gas: 5 }, '.gas must be a hex quantity'],
    [{ to: a, data: '0x123' }, '.data must be hex data'],
    [{ to: a, chainId: `0x${'f'.repeat(13)}`, nonce: '0x0', from: null, gas: null }, 'ok'],
  ])('%j: %s', (tx, why) => expect(reason(transaction, tx)).toBe(why))

  test('the value returned is the request itself, typed', () => {
    const tx = { to: a, value: '0x1' }
    expect(transaction(tx)).toBe(tx)
  })
})

describe('chain switches, batches, typed data, chain lists', () => {
  test.each([
    [chain, { chainId: '0x7a69' }, 'ok'],
    [chain, { chainId: '0x0' }, '.chainId must be a positive hex number'],
    [chain, { chainId: `0x${'f'.repeat(14)}` }, '.chainId must be a hex number below 2^52'],
    [calls, { calls: [{ to: a }] }, 'ok'],
    [calls, { calls: 'x' }, '.calls must be a list of at most 100 calls'],
    [calls, { calls: Array(101).fill({ to: a }) }, '.calls must be a list of at most 100 calls'],
    [calls, { calls: [{ to: a }, { to: a, value: 1 }] }, '.calls[1] .value must be a hex quantity'],
    [calls, { calls: [{ to: a }, null] }, '.calls[1] must be an object'],
    [typedData, JSON.stringify(typed), 'ok'],
    [typedData, { ...typed, message: { v: 5n } }, 'must be EIP-712 typed data (JSON)'],
    [typedData, { ...typed, types: 'x' }, 'must be EIP-712 typed data (types, primaryType, message)'],
    [typedData, { ...typed, primaryType: 12 }, 'must be EIP-712 typed data (types, primaryType, message)'],
    [chainIds, ['0x1', '0x7a69'], 'ok'],
    [chainIds, undefined, 'ok'],
    [chainIds, ['0x1', 1], 'must be a list of chain ids'],
  ] as [Param<unknown>, unknown, string][])('%#: %j → %s', (param, value, why) => expect(reason(param, value)).toBe(why))

  test('typed data is read back from the JSON text that will be signed', () => {
    const text = JSON.stringify(typed)
    expect(typedData(text)).toEqual({ json: text, typed })
    expect(typedData(typed)).toEqual({ json: text, typed })
  })
})

describe('parseRequest: one parse, typed params, the errors of the caller', () => {
  const error = (code: number, message: string) => ({ code, message })
  const parse = (method: string, params?: unknown) => {
    try {
      return parseRequest(params === undefined ? { method } : { method, params: params as never }, error)
    } catch (err) {
      return err
    }
  }

  test('a frame method and a read, typed', () => {
    expect(parse('eth_signTypedData_v4', [a, JSON.stringify(typed)])).toEqual({
      method: 'eth_signTypedData_v4',
      kind: 'sign',
      params: [a, { json: JSON.stringify(typed), typed }],
    })
    expect(parse('eth_blockNumber')).toEqual({ method: 'eth_blockNumber', kind: 'read', params: [] })
    expect(parse('wallet_switchEthereumChain', [{ chainId: '0x1' }])).toMatchObject({ kind: 'chain' })
  })

  test('4200 and -32602 in the words dapps have always seen', () => {
    expect(parse('eth_sign', [a, '0x00'])).toEqual({ code: 4200, message: 'Unsupported method: eth_sign' })
    expect(parse('personal_sign', ['0x6869'])).toEqual({ code: -32602, message: 'Invalid params for personal_sign: expected 2 to 3 params, got 1' })
    expect(parse('wallet_sendCalls', [{ calls: [{ to: 'bob' }] }])).toEqual({
      code: -32602,
      message: 'Invalid params for wallet_sendCalls: params[0] .calls[0] .to must be an address',
    })
  })
})
