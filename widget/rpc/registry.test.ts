import { describe, expect, test } from 'vitest'
import { methodOf } from '../../bridge/index.ts'
import { eth_accounts } from './eth_accounts.ts'
import { eth_chainId, net_version } from './eth_chainId.ts'
import { handlers } from './index.ts'
import { wallet_getPermissions } from './permissions.ts'
import { testContext } from './context.fixture.ts'
import type { RpcContext } from './types.ts'

/** A context whose chain RPC records every method it is asked to forward. */
function withRpc() {
  const t = testContext()
  const forwarded: string[] = []
  t.ctx.rpc = (() => ({
    request: async ({ method }: { method: string }) => {
      forwarded.push(method)
      return '0x1'
    },
  })) as unknown as RpcContext['rpc']
  return { ...t, forwarded }
}

describe('the frame answers by the shared method table (bridge/rpc-methods.ts)', () => {
  test('every handler is a method of the table, and every method of the table that is not a read has a handler', () => {
    for (const method of Object.keys(handlers)) expect(methodOf(method), method).toBeDefined()
    for (const method of [
      'eth_requestAccounts',
      'personal_sign',
      'eth_signTypedData_v4',
      'eth_sendTransaction',
      'wallet_sendCalls',
      'wallet_switchEthereumChain',
    ])
      expect(Object.hasOwn(handlers, method), method).toBe(true)
  })

  test.each([
    'eth_sendUnsignedTransaction',
    'eth_sendTransactionSync',
    'anvil_setBalance',
    'evm_mine',
    'debug_traceCall',
    'personal_unlockAccount',
    'txpool_content',
    'eth_sign',
  ])('%s is 4200 and never reaches the chain', async (method) => {
    const { call, forwarded } = withRpc()
    expect(await call(method, [{ from: '0x000000000000000000000000000000000000dEaD' }])).toEqual({ code: 4200, message: `Unsupported method: ${method}` })
    expect(forwarded).toEqual([])
  })

  test('a read on the allowlist goes to the chain', async () => {
    const { call, forwarded } = withRpc()
    expect(await call('eth_getLogs', [{ fromBlock: '0x0' }])).toEqual({ result: '0x1' })
    expect(await call('web3_clientVersion')).toEqual({ result: '0x1' })
    expect(forwarded).toEqual(['eth_getLogs', 'web3_clientVersion'])
  })

  test('params that do not fit the schema are -32602 before any handler runs: nothing queued, nothing signed', async () => {
    const { call, calls, wallet } = withRpc()
    expect(await call('personal_sign', ['0x6869'])).toEqual({ code: -32602, message: 'Invalid params for personal_sign: expected 2 to 3 params, got 1' })
    expect(await call('eth_sendTransaction', [{ from: '0x000000000000000000000000000000000000dEaD', value: 12 }])).toEqual({
      code: -32602,
      message: 'Invalid params for eth_sendTransaction: params[0] .value must be a hex quantity',
    })
    expect(await call('eth_chainId', { a: 1 })).toEqual({ code: -32602, message: 'Invalid params for eth_chainId: params must be an array' })
    expect(await call('eth_getBalance', ['me'])).toEqual({ code: -32602, message: 'Invalid params for eth_getBalance: params[0] must be an address' })
    expect(calls).toEqual([])
    expect(wallet.ui.get().queued ?? 0).toBe(0)
  })
})

test('the answers that need no screen run in the frame core: their handlers are imported, not loaded on first use', () => {
  expect(handlers.eth_chainId).toBe(eth_chainId)
  expect(handlers.eth_accounts).toBe(eth_accounts)
  expect(handlers.net_version).toBe(net_version)
  expect(handlers.wallet_getPermissions).toBe(wallet_getPermissions)
})
