import { expect, test } from 'vitest'
import { answers, rpcTransaction } from './account.ts'
import { readSession } from './client.ts'

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

test("a wallet's answers are read by their byte counts: 65 to 16384 for a signature, 32 for a hash, 1 to 262144 for a signed transaction", () => {
  const hex = (bytes: number, digit = 'aB') => `0x${digit.repeat(bytes)}`
  expect([hex(64), hex(65), hex(16384), hex(16385), `${hex(65)}0`, hex(65, 'zz')].map(answers.signature)).toEqual([false, true, true, false, false, false])
  expect([hex(32), hex(31), `${hex(31)}0`, hex(33), 12].map(answers.hash)).toEqual([true, false, false, false, false])
  expect(['0x', hex(1), hex(262144), hex(262145), '0x0'].map(answers.signedTransaction)).toEqual([false, true, true, false, false])
})

test("an approved session's accounts: eip155:<chain>:<address> only, any case, the first address's chains", () => {
  const a = '0x000000000000000000000000000000000000dEaD'
  const accounts = [`eip155:1:${a}`, `eip155:0x5:${a}`, `eip155:10:${a.toLowerCase()}`, `eip155:8453:${a}:x`, `cosmos:1:${a}`, `eip155:137:${a}0`]
  const session = {
    topic: 't',
    namespaces: { eip155: { accounts, methods: [], events: [] } },
    peer: { publicKey: '', metadata: { name: '', description: '', url: '', icons: [] } },
  }
  expect(readSession(session)).toEqual({ topic: 't', address: a, chainIds: [1, 10], peer: 'Wallet' })
})
