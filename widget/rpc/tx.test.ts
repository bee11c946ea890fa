import { describe, expect, test } from 'vitest'
import type { TransactionParams } from '../../bridge/index.ts'
import { parseTransaction, withFees } from './tx.ts'

const account = {
  address: '0x00000000000000000000000000000000000A11cE' as const,
  chain: {
    chainId: 31337,
    name: 'Local Chain 1',
    network: 'local-1',
    rpcUrls: [],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    testnet: true,
  },
}
const to = '0x000000000000000000000000000000000000bEEF'

describe('parseTransaction: EIP-1193 transaction → wallet service body', () => {
  test('hex quantities become whole-unit value; the fee fields are read apart (rpc/fees.ts completes them)', () => {
    const { request, payload, fees, value } = parseTransaction(
      { from: account.address, to, value: '0xde0b6b3a7640000', gas: '0x5208', maxFeePerGas: '0x3b9aca00', nonce: '0x7', chainId: '0x7a69', data: '0xabcd' },
      account,
    )
    expect(request).toEqual({ from: account.address, to, data: '0xabcd', value: '1', nonce: 7 })
    expect(payload).toEqual({ from: account.address, to, value: '1', data: '0xabcd', chainId: 31337, nonce: 7 })
    expect(fees).toEqual({ gas: 21000n, maxFeePerGas: 1000000000n })
    expect(value).toBe(10n ** 18n)
    expect(withFees(request, { gasLimit: 21000n, maxFeePerGas: 1000000000n })).toEqual({ ...request, gasLimit: '21000', maxFeePerGas: '1000000000' })
    expect(withFees(request, { gasLimit: 5n, gasPrice: 2n })).toEqual({ ...request, gasLimit: '5', gasPrice: '2' })
  })

  test('defaults: from is the account, data 0x, input accepted for data', () => {
    expect(parseTransaction({ to, input: '0x01' }, account).request).toEqual({ from: account.address, to, data: '0x01' })
    expect(parseTransaction({ to }, account).request.data).toBe('0x')
  })

  // The shapes (an object, addresses, hex quantities, a chain id below 2^52) are the method
  // table's, checked before any handler runs: bridge/rpc-params.test.ts. These are the account's rules.
  test.each([
    [{ to }, undefined],
    [{ from: '0x000000000000000000000000000000000000dEaD', to }, 'is not the connected account'],
    [{}, 'to is required'],
    [{ to, chainId: '0x1' }, 'transaction is for chain 1, the wallet is on Local Chain 1 (31337): switch chains first'],
  ])('%j → %s', (tx, reason) => {
    if (reason === undefined) expect(() => parseTransaction(tx as TransactionParams, account)).not.toThrow()
    else
      expect(() => parseTransaction(tx as TransactionParams, account)).toThrow(
        expect.objectContaining({ code: -32602, message: expect.stringContaining(reason) }),
      )
  })
})
