import { describe, expect, test } from 'vitest'
import { testContext } from '../rpc/context.fixture.ts'
import { alice } from '../wallet.fixture.ts'
import type { Account } from './account.ts'

/** Lets queued work (the confirmation's payload, the gate) run. */
const tick = () => new Promise((r) => setTimeout(r, 0))

describe('signing handlers act for the active account, whatever its source', () => {
  test('another source plugged into the context signs everything; the wallet service is never called', async () => {
    const t = testContext({ session: alice })
    await t.wallet.restore()
    const done: string[] = []
    const chain = t.wallet.chain()!
    const other: Account = {
      source: 'walletconnect',
      address: '0x000000000000000000000000000000000000C0DE',
      chain,
      signMessage: async (bytes) => {
        done.push(`message ${bytes}`)
        return '0x01'
      },
      signTypedData: async () => {
        done.push('typed')
        return '0x02'
      },
      estimateGas: async () => {
        done.push('estimate')
        return { gasLimit: '21000', maxFeePerGas: '1000', maxPriorityFeePerGas: '1' }
      },
      sendTransaction: async (tx) => {
        done.push(`send ${tx.to} ${tx.gasLimit}`)
        return '0x03'
      },
      signTransaction: async () => {
        done.push('sign tx')
        return '0x04'
      },
      atomic: 'supported',
    }
    t.ctx.account = () => other

    const confirmNext = async <T>(answer: Promise<T>) => {
      await tick()
      await t.confirmations.confirm()
      return answer
    }
    expect(await confirmNext(t.call('personal_sign', ['0x6869', other.address]))).toEqual({ result: '0x01' })
    const typed = { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: {} }
    expect(await confirmNext(t.call('eth_signTypedData_v4', [other.address, JSON.stringify(typed)]))).toEqual({ result: '0x02' })
    expect(await confirmNext(t.call('eth_sendTransaction', [{ from: other.address, to: alice.address, value: '0x1' }]))).toEqual({ result: '0x03' })
    // The account named by the request must be the active one: alice's session is not this account.
    expect(await t.call('personal_sign', ['0x6869', alice.address])).toMatchObject({ code: 4100 })
    expect(await t.call('wallet_getCapabilities', [other.address])).toEqual({
      result: { '0x7a69': { atomic: { status: 'supported' } }, '0x7a6a': { atomic: { status: 'supported' } } },
    })
    expect(done).toEqual(['message 0x6869', 'typed', 'estimate', `send ${alice.address} 21000`])
    expect(t.calls).toEqual([])
  })

  test('nobody signed in: 4100, nothing asked', async () => {
    const t = testContext()
    await t.wallet.restore()
    expect(await t.call('personal_sign', ['0x6869', alice.address])).toMatchObject({ code: 4100 })
    expect(t.calls).toEqual([])
  })

  test('the embedded wallet signs through the wallet service of the held session, on the active chain', async () => {
    const t = testContext({ session: alice })
    await t.wallet.restore()
    await t.wallet.switchChain(31338)
    const answer = t.call('personal_sign', ['hello there', alice.address])
    await tick()
    await t.confirmations.confirm()
    expect(await answer).toEqual({ result: '0x03' })
    expect(t.calls).toEqual([['signMessage', { network: 'local-2', message: 'hello there' }]])
  })
})
