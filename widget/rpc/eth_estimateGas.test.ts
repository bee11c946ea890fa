import { describe, expect, test } from 'vitest'
import { alice } from '../wallet.fixture.ts'
import { testContext } from './context.fixture.ts'

const bob = '0x0000000000000000000000000000000000000B0b'

describe('eth_estimateGas', () => {
  test("the embedded wallet's own transaction: the wallet service's estimate, as a hex quantity", async () => {
    const t = testContext({ session: alice })
    await t.wallet.restore()
    expect(await t.call('eth_estimateGas', [{ from: alice.address, to: bob, value: '0xde0b6b3a7640000', data: '0x12' }])).toEqual({ result: '0x5208' })
    expect(t.calls).toEqual([['estimateGas', { network: 'local-1', type: 'custom', transaction: { from: alice.address, to: bob, data: '0x12', value: '1' } }]])
  })

  test("the service cannot estimate: 'Failed to estimate gas' (-32603) with its reason", async () => {
    const t = testContext({ session: alice, estimate: new Error('execution reverted') })
    await t.wallet.restore()
    expect(await t.call('eth_estimateGas', [{ to: bob }])).toEqual({ code: -32603, message: 'Failed to estimate gas: execution reverted' })
  })

  test('another sender, a contract creation, or nobody signed in: a read the chain answers (never the wallet service)', async () => {
    const t = testContext({ session: alice })
    await t.wallet.restore()
    const forwarded: unknown[] = []
    t.ctx.rpc = () =>
      ({
        request: async (r: unknown) => {
          forwarded.push(r)
          return '0x1'
        },
      }) as never
    expect(await t.call('eth_estimateGas', [{ from: bob, to: alice.address }])).toEqual({ result: '0x1' })
    expect(await t.call('eth_estimateGas', [{ data: '0x6000' }])).toEqual({ result: '0x1' })
    const nobody = testContext()
    await nobody.wallet.restore()
    nobody.ctx.rpc = t.ctx.rpc
    expect(await nobody.call('eth_estimateGas', [{ to: bob }])).toEqual({ result: '0x1' })
    expect(forwarded).toHaveLength(3)
    expect(t.calls).toEqual([])
    // Params that are not a transaction are -32602 before anything is asked.
    expect(await t.call('eth_estimateGas', ['nope'])).toMatchObject({ code: -32602 })
  })
})
