import { expect, test } from 'vitest'
import { formatAmount, formatWei, shortAddress } from './format.ts'

test('addresses keep their first 6 and last 4 characters', () => {
  expect(shortAddress('0x286461232E8a4D4E56FE989dD36536D36dd934C4')).toBe('0x2864…34C4')
})

test.each([
  [0, '0'],
  [0.5, '0.5'],
  [0.129, '0.12'],
  [0.001, '0'],
  [1, '1.00'],
  [10.456, '10.45'],
  [999.999, '999.99'],
  [1000, '1k'],
  [12_345, '12.34k'],
  [2_500_000, '2.5m'],
  [7e9, '7b'],
  [3.2e12, '3.2t'],
])('%d → %s', (n, text) => {
  expect(formatAmount(n)).toBe(text)
})

test('wei in hex to whole units', () => {
  expect(formatWei('0x8ac7230489e80000')).toBe('10.00') // 10 ETH
  expect(formatWei('0x0')).toBe('0')
})
