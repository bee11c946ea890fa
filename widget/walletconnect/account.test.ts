import { expect, test } from 'vitest'
import { rpcTransaction } from './account.ts'

test("the service's transaction shape becomes the JSON-RPC one a wallet reads: value from whole units to wei, gas figures to hex, nothing invented", () => {
  const from = '0x000000000000000000000000000000000000c0de'
  const to = '0x000000000000000000000000000000000000bEEF'
  expect(
    rpcTransaction({ from, to, data: '0x', value: '0.000000000000000001', gasLimit: '21000', maxFeePerGas: '2000000000', maxPriorityFeePerGas: '1', nonce: 7 }),
  ).toEqual({
    from,
    to,
    data: '0x',
    value: '0x1',
    gas: '0x5208',
    maxFeePerGas: '0x77359400',
    maxPriorityFeePerGas: '0x1',
    nonce: '0x7',
  })
  expect(rpcTransaction({ from, to, data: '0xabcd', value: '1.5' })).toEqual({ from, to, data: '0xabcd', value: '0x14d1120d7b160000' })
})
