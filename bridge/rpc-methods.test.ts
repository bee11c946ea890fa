import { describe, expect, test } from 'vitest'
import { checkParams, checkRpcRequest, isRpcRead, methodOf, rpcReads, timeouts, type FrameMethod, type Kind } from './rpc-methods.ts'

const a = '0x000000000000000000000000000000000000dEaD'
const typed = { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: {} }

/** The reason a request's params are refused (undefined: sent on), or 'unsupported'. */
const check = (method: string, params?: unknown) => {
  const known = methodOf(method)
  return known ? checkParams(known[0], params) : 'unsupported'
}

describe('params are checked per method', () => {
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

  test.each(['eth_sign', 'eth_signTypedData', 'eth_signTypedData_v3', 'eth_subscribe', 'acme_doThings', 'toString', '__proto__', 'hasOwnProperty'])(
    '%s is unsupported (4200)',
    (method) => {
      expect(check(method)).toBe('unsupported')
    },
  )
})

describe('each kind of call has its own timeout', () => {
  const [read, sign, none] = [30_000, 600_000, undefined]
  test.each([
    ['eth_requestAccounts', 'connect', none],
    ['wallet_requestPermissions', 'permission', none],
    ['personal_sign', 'sign', sign],
    ['eth_signTypedData_v4', 'sign', sign],
    ['eth_sendTransaction', 'sign', sign],
    ['eth_signTransaction', 'sign', sign],
    ['wallet_sendCalls', 'sign', sign],
    ['wallet_switchEthereumChain', 'chain', sign],
    ['wallet_addEthereumChain', 'chain', sign],
    ['wallet_getPermissions', 'read', read],
    ['wallet_revokePermissions', 'read', read],
    ['eth_chainId', 'read', read],
    ['eth_estimateGas', 'read', read],
    ['wallet_getCallsStatus', 'read', read],
    ['eth_getBlockByNumber', 'read', read],
  ])('%s: %s, %s ms', (method, kind, timeout) => {
    expect(methodOf(method)?.[1]).toBe(kind)
    expect(timeouts[methodOf(method)![1]]).toBe(timeout)
  })
})

describe('the read allowlist: only reads reach a chain, whatever the prefix', () => {
  test.each([
    'eth_blockNumber',
    'eth_call',
    'eth_chainId',
    'eth_estimateGas',
    'eth_feeHistory',
    'eth_gasPrice',
    'eth_getBalance',
    'eth_getBlockByHash',
    'eth_getBlockByNumber',
    'eth_getBlockReceipts',
    'eth_getCode',
    'eth_getLogs',
    'eth_getProof',
    'eth_getStorageAt',
    'eth_getTransactionByHash',
    'eth_getTransactionCount',
    'eth_getTransactionReceipt',
    'eth_maxPriorityFeePerGas',
    'eth_syncing',
    'eth_newFilter',
    'eth_getFilterChanges',
    'eth_uninstallFilter',
    'net_version',
    'net_listening',
    'web3_clientVersion',
  ])('%s is a read', (method) => {
    expect(isRpcRead(method)).toBe(true)
    expect(methodOf(method)?.[1]).toBe('read')
  })

  // Each of these, forwarded to anvil, moves funds or rewrites the chain without any signature.
  test.each([
    'eth_sendUnsignedTransaction',
    'eth_sendTransactionSync',
    'eth_sendRawTransactionSync',
    'eth_sign',
    'eth_coinbase',
    'eth_submitWork',
    'anvil_setBalance',
    'anvil_impersonateAccount',
    'anvil_setCode',
    'anvil_reset',
    'hardhat_setBalance',
    'evm_mine',
    'evm_revert',
    'debug_traceTransaction',
    'personal_ecRecover',
    'personal_unlockAccount',
    'txpool_content',
    'admin_peers',
    'miner_start',
    'ETH_GETBALANCE',
    'eth_getBalance ',
    'constructor',
  ])('%s is not a read, and not a method of the kit (4200)', (method) => {
    expect(isRpcRead(method)).toBe(false)
    expect(methodOf(method)).toBeUndefined()
  })

  test('every entry is a plain eth_, net_ or web3_ method name', () => {
    expect(rpcReads.size).toBeGreaterThan(30)
    for (const method of rpcReads) expect(method).toMatch(/^(eth|net|web3)_[a-zA-Z]+$/)
  })
})

describe('the contract is checked by tsc', () => {
  test('a frame handler table missing a method, or a timeout table missing a kind, does not compile', () => {
    const all = {} as Record<FrameMethod, true>
    const { personal_sign: _, ...rest } = all
    // @ts-expect-error personal_sign has no handler
    const missing: { readonly [method in FrameMethod]: true } = rest
    // @ts-expect-error the chain kind has no timeout
    const noChain: { readonly [kind in Kind]: number | undefined } = { read: 1, sign: 1, connect: 1, permission: 1 }
    expect([missing, noChain]).toHaveLength(2)
  })
})

describe('checkRpcRequest', () => {
  test.each([
    [{ method: 'eth_chainId' }, undefined],
    [{ method: 'eth_call', params: [{ to: '0x' }, 'latest'] }, undefined],
    [{ method: 'wallet_switchEthereumChain', params: { chainId: '0x1' } }, undefined],
    [null, 'request must be an object'],
    ['eth_chainId', 'request must be an object'],
    [[{ method: 'eth_chainId' }], 'request must be an object'],
    [{}, 'method must be a non-empty string'],
    [{ method: '' }, 'method must be a non-empty string'],
    [{ method: 42 }, 'method must be a non-empty string'],
    [{ method: 'x'.repeat(129) }, 'method must be a non-empty string'],
    [{ method: 'eth_call', params: 'latest' }, 'params must be an array or an object'],
    [{ method: 'eth_call', params: null }, 'params must be an array or an object'],
  ])('%j → %s', (input, reason) => {
    expect(checkRpcRequest(input)).toBe(reason)
  })
})
