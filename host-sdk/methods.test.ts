import { describe, expect, test } from 'vitest'
import { checkParams, methodOf } from './methods.ts'

const a = '0x000000000000000000000000000000000000dEaD'
const typed = { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: {} }

/** The reason a request's params are refused (undefined: sent on), or 'unsupported'. */
const check = (method: string, params?: unknown) => {
  const known = methodOf(method)
  return known ? checkParams(known[0], params) : 'unsupported'
}

describe('params are checked per method before anything is sent', () => {
  test.each([
    ['eth_requestAccounts', undefined],
    ['eth_requestAccounts', []],
    ['eth_accounts', []],
    ['personal_sign', ['0x6869', a]],
    ['personal_sign', ['plain text', a.toLowerCase(), '']],
    ['eth_signTypedData_v4', [a, JSON.stringify(typed)]],
    ['eth_signTypedData_v4', [a, typed]],
    ['eth_sendTransaction', [{ from: a, to: a, value: '0x1', data: '0x', gas: '0x5208', maxFeePerGas: '0x1' }]],
    ['eth_sendTransaction', [{ from: a, data: '0x6080' }]],
    ['eth_estimateGas', [{ to: a }, 'latest']],
    ['eth_call', [{ to: a, data: '0x12345678' }, { blockHash: '0x00' }]],
    ['wallet_switchEthereumChain', [{ chainId: '0x7a69' }]],
    ['wallet_addEthereumChain', [{ chainId: '0x7a69', chainName: 'Local', rpcUrls: ['http://x'] }]],
    ['wallet_getCapabilities', [a, ['0x7a69']]],
    ['wallet_sendCalls', [{ version: '2.0.0', calls: [{ to: a }] }]],
    ['wallet_getCallsStatus', ['0xabc']],
    ['wallet_requestPermissions', [{ eth_accounts: {} }]],
    ['wallet_revokePermissions', [{ eth_accounts: {} }]],
    ['eth_getBalance', [a, 'latest']],
    ['eth_blockNumber', []],
    ['eth_getLogs', [{ address: a }]],
  ])('%s %j is sent', (method, params) => {
    expect(check(method, params)).toBeUndefined()
  })

  test.each([
    ['eth_accounts', ['x'], 'expected 0 params, got 1'],
    ['eth_accounts', { a: 1 }, 'params must be an array'],
    ['personal_sign', ['0x6869'], 'expected 2 to 3 params, got 1'],
    ['personal_sign', [42, a], 'params[0] must be a string'],
    ['personal_sign', ['0x6869', '0x123'], 'params[1] must be an address'],
    ['eth_signTypedData_v4', [a, '{broken'], 'params[1] must be EIP-712 typed data (JSON)'],
    ['eth_signTypedData_v4', [a, '{}'], 'params[1] .types is required'],
    ['eth_sendTransaction', [], 'expected 1 params, got 0'],
    ['eth_sendTransaction', ['0x'], 'params[0] must be an object'],
    ['eth_sendTransaction', [{ from: a, value: 1 }], 'params[0] .value must be a hex quantity'],
    ['eth_sendTransaction', [{ from: a, to: 'bob' }], 'params[0] .to must be an address'],
    ['eth_sendTransaction', [{ from: a, data: '0x123' }], 'params[0] .data must be hex data'],
    ['wallet_switchEthereumChain', [{}], 'params[0] .chainId is required'],
    ['wallet_switchEthereumChain', [{ chainId: 1 }], 'params[0] .chainId must be a hex quantity'],
    ['wallet_sendCalls', [{ version: '2.0.0' }], 'params[0] .calls is required'],
    ['wallet_requestPermissions', ['eth_accounts'], 'params[0] must be an object'],
    ['eth_getBalance', ['me'], 'params[0] must be an address'],
  ])('%s %j is refused: %s', (method, params, reason) => {
    expect(check(method, params)).toBe(reason)
  })

  test.each(['eth_sign', 'eth_signTypedData', 'eth_signTypedData_v3', 'eth_subscribe', 'web3_clientVersion', 'acme_doThings', 'toString', '__proto__'])(
    '%s is unsupported (4200)',
    (method) => {
      expect(check(method)).toBe('unsupported')
    },
  )
})

describe('each kind of call has its own timeout', () => {
  test.each([
    ['eth_requestAccounts', 'user'],
    ['wallet_requestPermissions', 'user'],
    ['personal_sign', 'sign'],
    ['eth_signTypedData_v4', 'sign'],
    ['eth_sendTransaction', 'sign'],
    ['eth_signTransaction', 'sign'],
    ['wallet_sendCalls', 'sign'],
    ['wallet_switchEthereumChain', 'sign'],
    ['eth_chainId', 'read'],
    ['eth_estimateGas', 'read'],
    ['wallet_getCallsStatus', 'read'],
    ['eth_getBlockByNumber', 'read'],
  ])('%s: %s', (method, kind) => {
    expect(methodOf(method)?.[1]).toBe(kind)
  })
})
