import { describe, expect, test } from 'vitest'
import { alice } from '../wallet.fixture.ts'
import { testContext } from './context.fixture.ts'

const to = '0x000000000000000000000000000000000000bEEF'
const settle = () => new Promise((r) => setTimeout(r, 0))

describe('one active chain: eth_chainId, the network shown and the network used agree', () => {
  test('a stored chain the host no longer configures falls back to its first chain', async () => {
    // Signed up on 31337; the host now offers only 31338.
    const { wallet, call, calls, confirmations, events, stored } = testContext({ session: alice, chains: [31338] })
    await wallet.restore()
    expect(await call('eth_chainId')).toEqual({ result: '0x7a6a' })
    expect(await call('net_version')).toEqual({ result: '31338' })
    // The host was never told 31337 in this page: nothing to take back.
    expect(events).toEqual([])
    // The stored choice is the user's: another tab of a host that offers 31337 keeps using it.
    expect(stored()?.chainId).toBe(31337)

    // A transaction pinned to the stored chain is refused before any modal and anything is signed.
    expect(await call('eth_sendTransaction', [{ to, value: '0x1', chainId: '0x7a69' }])).toEqual({
      code: -32602,
      message: 'transaction is for chain 31337, the wallet is on Local Chain 2 (31338): switch chains first',
    })
    expect(wallet.ui.get().view).toBeNull()
    expect(calls).toEqual([])

    // Unpinned: shown on Local Chain 2 and sent there.
    const sent = call('eth_sendTransaction', [{ to, value: '0x1' }])
    await settle()
    expect(wallet.ui.get().confirmation?.payload.chainId).toBe(31338)
    await confirmations.confirm()
    await new Promise((r) => setTimeout(r, 550))
    expect(await sent).toEqual({ result: '0x01' })
    expect(calls.map(([name, p]) => [name, p.network])).toEqual([
      ['estimateGas', 'local-2'],
      ['sendTransaction', 'local-2'],
    ])
  })

  test('messages, typed data and call batches use the active chain too', async () => {
    const { wallet, call, calls, confirmations } = testContext({ session: alice, chains: [31338] })
    await wallet.restore()
    const signed = call('personal_sign', ['0x6869', alice.address])
    await settle()
    expect(wallet.ui.get().confirmation?.payload.chainId).toBe(31338)
    await confirmations.confirm()
    await new Promise((r) => setTimeout(r, 550))
    expect(await signed).toEqual({ result: '0x03' })
    expect(calls).toEqual([['signMessage', { network: 'local-2', message: 'hi' }]])

    const typed = {
      types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], M: [{ name: 'a', type: 'uint256' }] },
      primaryType: 'M',
      domain: { chainId: 31337 },
      message: { a: 1 },
    }
    expect(await call('eth_signTypedData_v4', [alice.address, JSON.stringify(typed)])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Local Chain 2 (31338)'),
    })
    expect(await call('wallet_sendCalls', [{ chainId: '0x7a69', calls: [{ to }] }])).toMatchObject({
      code: -32602,
      message: expect.stringContaining('Local Chain 2 (31338)'),
    })
    expect(wallet.ui.get().view).toBeNull()
  })

  test('after a switch, a request pinned to the old chain is refused', async () => {
    const { wallet, call, events } = testContext({ session: alice })
    await wallet.restore()
    await wallet.switchChain(31338)
    expect(events).toEqual([['chainChanged', '0x7a6a']])
    expect(await call('eth_sendTransaction', [{ to, chainId: '0x7a69' }])).toMatchObject({ code: -32602 })
    expect(await call('eth_chainId')).toEqual({ result: '0x7a6a' })
  })
})
