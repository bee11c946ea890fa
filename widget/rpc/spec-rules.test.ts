import { describe, expect, test } from 'vitest'
import { alice, setUi } from '../wallet.fixture.ts'
import { testContext } from './context.fixture.ts'
import type { RpcContext } from './types.ts'

// What the host hears: reads and the gas estimate answer whatever the wallet's signing permission,
// and the exact messages of a rejected typed-data signature, a failed transaction signature and a
// chain the app does not know.

const bob = '0x0000000000000000000000000000000000000B0b'
const tick = () => new Promise((r) => setTimeout(r, 0))
const acceptPage = 'http://localhost:8787/permission/accept?token=t'

/** alice, connected, whose wallet has not been given signing permission yet; a chain RPC that records what it forwards. */
async function withoutPermission() {
  const t = testContext({ session: alice, account: { isPermissionGranted: false, acceptPermissionPage: acceptPage } })
  await t.wallet.restore()
  const forwarded: string[] = []
  t.ctx.rpc = (() => ({
    request: async ({ method }: { method: string }) => {
      forwarded.push(method)
      return '0x2a'
    },
  })) as unknown as RpcContext['rpc']
  return { ...t, forwarded }
}

describe('signing permission off (isPermissionGranted false)', () => {
  test('reads answer, from the chain, without the need-permission modal', async () => {
    const { call, wallet, forwarded } = await withoutPermission()
    expect(wallet.ui.get().account.isPermissionGranted).toBe(false)
    expect(await call('eth_blockNumber')).toEqual({ result: '0x2a' })
    expect(await call('eth_getBalance', [alice.address, 'latest'])).toEqual({ result: '0x2a' })
    expect(await call('eth_call', [{ to: bob, data: '0x' }, 'latest'])).toEqual({ result: '0x2a' })
    expect(forwarded).toEqual(['eth_blockNumber', 'eth_getBalance', 'eth_call'])
    expect(await call('eth_accounts')).toEqual({ result: [alice.address] })
    expect(await call('eth_chainId')).toEqual({ result: '0x7a69' })
    expect(wallet.ui.get().view).toBeNull()
  })

  test("the embedded wallet's own estimate-gas asks the wallet service and answers, without the modal", async () => {
    const { call, wallet, calls } = await withoutPermission()
    expect(await call('eth_estimateGas', [{ from: alice.address, to: bob, value: '0x1' }])).toEqual({ result: '0x5208' })
    expect(calls.map(([name]) => name)).toEqual(['estimateGas'])
    expect(wallet.ui.get().view).toBeNull()
  })

  test('while a signature, a send or typed data opens the need-permission modal and is refused (4100)', async () => {
    const { call, wallet, calls } = await withoutPermission()
    for (const [method, params] of [
      ['personal_sign', ['0x68690a', alice.address]],
      ['eth_sendTransaction', [{ from: alice.address, to: bob, value: '0x1' }]],
      ['eth_signTypedData_v4', [alice.address, JSON.stringify(typedData)]],
    ] as const) {
      wallet.close()
      const answer = await Promise.race([call(method, params), new Promise((r) => setTimeout(() => r('still waiting'), 20))])
      expect(answer, method).toMatchObject({ code: 4100 })
      expect(wallet.ui.get().view, method).toBe('need_permission')
    }
    expect(calls).toEqual([])
  })
})

const typedData = {
  domain: { name: 'Demo', version: '1', chainId: 31337 },
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Greeting: [{ name: 'text', type: 'string' }],
  },
  primaryType: 'Greeting',
  message: { text: 'gm' },
}

describe('exact messages', () => {
  test("typed data the user rejects: 4001 'Typed data signing rejected by user'", async () => {
    const { call, wallet, confirmations } = testContext({ session: alice })
    await wallet.restore()
    const answer = call('eth_signTypedData_v4', [alice.address, JSON.stringify(typedData)])
    await tick()
    expect(wallet.ui.get().confirmation?.status).toBe('idle')
    confirmations.reject()
    expect(await answer).toEqual({ code: 4001, message: 'Typed data signing rejected by user' })
  })

  test("a transaction signature the wallet service fails: 'Failed to sign transaction' on screen and to the host", async () => {
    const { call, wallet, confirmations, ctx } = testContext({ session: alice })
    await wallet.restore()
    ;(ctx.client.wallet as { signTransaction: unknown }).signTransaction = async () => {
      throw new Error('node is down')
    }
    const answer = call('eth_signTransaction', [{ from: alice.address, to: bob, value: '0x1' }])
    for (let i = 0; i < 5 && wallet.ui.get().confirmation?.status !== 'idle'; i++) await tick()
    await confirmations.confirm()
    expect(wallet.ui.get().confirmation).toMatchObject({ status: 'error', error: 'Failed to sign transaction: node is down' })
    confirmations.reject()
    expect(await answer).toEqual({ code: -32603, message: 'Failed to sign transaction: node is down' })
  })

  test("the current chain is not one the app has: reads and signatures are 'Chain not found' (4901)", async () => {
    const { call, wallet, ctx } = testContext({ session: alice })
    await wallet.restore()
    ctx.rpc = (() => ({ request: async () => '0x1' })) as unknown as RpcContext['rpc']
    setUi(wallet, { chainId: 999 })
    expect(await call('eth_blockNumber')).toEqual({ code: 4901, message: 'Chain not found' })
    expect(await call('personal_sign', ['0x68690a', alice.address])).toEqual({ code: 4901, message: 'Chain not found' })
    expect(wallet.ui.get().view).toBeNull()
  })
})
