import { describe, expect, test } from 'vitest'
import type { TransactionParams } from '../../bridge/index.ts'
import { alice } from '../wallet.fixture.ts'
import { completeFees, describeFee, readFees, summarizeFees } from './fees.ts'
import { testContext } from './context.fixture.ts'

const to = '0x000000000000000000000000000000000000bEEF'
const gwei = 10n ** 9n
const eth = { symbol: 'ETH', decimals: 18 }
const settle = () => new Promise((r) => setTimeout(r, 0))

describe('readFees: the fee fields a host may pass', () => {
  test.each([
    [{}, {}],
    [
      { gas: '0x5208', maxFeePerGas: '0x3b9aca00' },
      { gas: 21000n, maxFeePerGas: gwei },
    ],
    [{ gasPrice: '0x1' }, { gasPrice: 1n }],
    [
      { maxPriorityFeePerGas: '0x2', maxFeePerGas: '0x2' },
      { maxFeePerGas: 2n, maxPriorityFeePerGas: 2n },
    ],
  ])('%j is taken', (tx, fees) => expect(readFees(tx as TransactionParams)).toEqual(fees))

  test.each([
    [{ gasPrice: '0x1', maxFeePerGas: '0x1' }, 'gasPrice (legacy) cannot be combined with maxFeePerGas or maxPriorityFeePerGas (EIP-1559)'],
    [{ gasPrice: '0x1', maxPriorityFeePerGas: '0x1' }, 'gasPrice (legacy) cannot be combined'],
    [{ maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }, 'maxPriorityFeePerGas cannot exceed maxFeePerGas'],
    [{ gas: '0x0' }, 'gas must be above 0'],
    [{ maxFeePerBlobGas: '0x1' }, 'blob transactions are not supported'],
    // A gas that is no hex quantity never gets here: the method table refuses it (bridge/rpc-params.test.ts).
  ])('%j is refused: %s', (tx, reason) =>
    expect(() => readFees(tx as TransactionParams)).toThrow(expect.objectContaining({ code: -32602, message: expect.stringContaining(reason) })),
  )
})

describe('completeFees: what is signed is what is shown', () => {
  const estimate = { gasLimit: '50000', gasPrice: '2000000000', maxFeePerGas: '3000000000', maxPriorityFeePerGas: '1000000000' }
  test.each([
    [
      'the host gave everything',
      { gas: 21000n, maxFeePerGas: 5n * gwei, maxPriorityFeePerGas: gwei },
      undefined,
      { gasLimit: 21000n, maxFeePerGas: 5n * gwei, maxPriorityFeePerGas: gwei },
    ],
    ['legacy gas price, estimated gas', { gasPrice: 7n * gwei }, estimate, { gasLimit: 50000n, gasPrice: 7n * gwei }],
    ['nothing: the estimate, pinned', {}, estimate, { gasLimit: 50000n, maxFeePerGas: 3n * gwei, maxPriorityFeePerGas: gwei }],
    [
      'only a priority fee: the base part of the estimate plus it',
      { maxPriorityFeePerGas: 4n * gwei },
      estimate,
      { gasLimit: 50000n, maxFeePerGas: 6n * gwei, maxPriorityFeePerGas: 4n * gwei },
    ],
    ['a chain without EIP-1559', {}, { gasLimit: '21000', gasPrice: '5' }, { gasLimit: 21000n, gasPrice: 5n }],
  ])('%s', (_, host, est, fees) => expect(completeFees(host, est)).toEqual(fees))
})

describe('describeFee: the maximum network fee and the total, in the native unit', () => {
  test('gas limit × max fee per gas, plus the value', () => {
    const summary = summarizeFees({ gasLimit: 21000n, maxFeePerGas: 1000n * gwei, maxPriorityFeePerGas: 2n * gwei }, 0n)
    expect(summary).toEqual({
      gasLimit: '21000',
      maxFeePerGas: '1000000000000',
      maxPriorityFeePerGas: '2000000000',
      maxFee: '21000000000000000',
      total: '21000000000000000',
    })
    expect(describeFee(summary, eth)).toEqual({ gasLimit: '21000', perGas: '1000 gwei', priority: '2 gwei', maxFee: '0.021 ETH', total: '0.021 ETH' })
    expect(describeFee(summarizeFees({ gasLimit: 21000n, gasPrice: 1n }, 10n ** 18n), { symbol: 'POL', decimals: 18 })).toEqual({
      gasLimit: '21000',
      perGas: '0.000000001 gwei',
      maxFee: '0.000000000000021 POL',
      total: '1.000000000000021 POL',
      priority: undefined,
    })
  })
})

describe('eth_sendTransaction: the fee is shown, then sent exactly as shown', () => {
  test('value 0 with a large maxFeePerGas shows a fee of 0.021 ETH and sends those fee fields', async () => {
    const { wallet, call, calls, confirmations } = testContext({ session: alice })
    await wallet.restore()
    const sent = call('eth_sendTransaction', [{ to, value: '0x0', gas: '0x5208', maxFeePerGas: `0x${(1000n * gwei).toString(16)}` }])
    await settle()
    expect(wallet.ui.get().confirmation?.payload.fee).toMatchObject({ maxFee: '21000000000000000', total: '21000000000000000', gasLimit: '21000' })
    await confirmations.confirm()
    await new Promise((r) => setTimeout(r, 550))
    expect(await sent).toEqual({ result: '0x01' })
    // Nothing to estimate: the host named the gas and its price.
    expect(calls).toEqual([
      [
        'sendTransaction',
        { network: 'local-1', transaction: { from: alice.address, to, data: '0x', value: '0', gasLimit: '21000', maxFeePerGas: '1000000000000' } },
      ],
    ])
  })

  test('no fee fields: the estimate is shown and pinned in what is sent', async () => {
    const { wallet, call, calls, confirmations } = testContext({ session: alice })
    await wallet.restore()
    const signed = call('eth_signTransaction', [{ to, value: '0xde0b6b3a7640000' }])
    await settle()
    expect(wallet.ui.get().confirmation?.payload.fee).toMatchObject({ maxFee: '63000000000000', total: '1000063000000000000' })
    await confirmations.confirm()
    await new Promise((r) => setTimeout(r, 550))
    expect(await signed).toEqual({ result: '0x02' })
    expect(calls.map(([name]) => name)).toEqual(['estimateGas', 'signTransaction'])
    expect(calls[0]![1]).toEqual({ network: 'local-1', type: 'custom', transaction: { from: alice.address, to, data: '0x', value: '1' } })
    expect(calls[1]![1].transaction).toMatchObject({ gasLimit: '21000', maxFeePerGas: '3000000000', maxPriorityFeePerGas: '1000000000' })
  })

  test('fee fields that cannot be shown are refused before any modal; a failed estimate answers with no modal', async () => {
    const { wallet, call, calls } = testContext({ session: alice, estimate: new Error('Insufficient funds: the amount exceeds the balance') })
    await wallet.restore()
    expect(await call('eth_sendTransaction', [{ to, gasPrice: '0x1', maxFeePerGas: '0x1' }])).toMatchObject({ code: -32602 })
    expect(calls).toEqual([])
    expect(await call('eth_sendTransaction', [{ to, value: '0xffffffffffffffffffff' }])).toEqual({
      code: -32603,
      message: 'Failed to estimate gas: Insufficient funds: the amount exceeds the balance',
    })
    expect(wallet.ui.get().view).toBeNull()
    expect(calls.map(([name]) => name)).toEqual(['estimateGas'])
  })
})
