import { expect, test } from 'vitest'
import { compactAmount, formatAmount, shortAddress } from './format.ts'

test('addresses keep their first 6 and last 4 characters', () => {
  expect(shortAddress('0x286461232E8a4D4E56FE989dD36536D36dd934C4')).toBe('0x2864…34C4')
  expect(shortAddress('0x1234567890abcdef1234567890abcdef12345678')).toBe('0x1234…5678')
  expect(shortAddress('0x12')).toBe('0x12')
})

// Under 1 up to 2 decimals, 1 to under 1000 2 decimals, otherwise whole numbers.
test.each([
  [0, '0'],
  [0.5, '0.5'],
  [0.129, '0.12'],
  [0.123456, '0.12'],
  [0.29, '0.29'],
  [0.001, '0'],
  [1, '1.00'],
  [10.456, '10.45'],
  [12.3456, '12.34'],
  [999.994, '999.99'],
  [999.999, '999.99'],
  [1000, '1,000'],
  [1234.56, '1,234'],
  [12_345, '12,345'],
  [123456.78, '123,456'],
  [2_500_000, '2,500,000'],
  ['9.5', '9.50'],
  ['10.00', '10.00'],
  [-1.5, '-1.50'],
  [-0.001, '0'],
  ['nope', '0'],
  [Number.NaN, '0'],
  [Number.POSITIVE_INFINITY, '0'],
])('formatAmount(%j) = %s', (input, text) => {
  expect(formatAmount(input)).toBe(text)
})

test.each([
  [0.5, '0.5'],
  [999, '999.00'],
  [1000, '1k'],
  [1234, '1.23k'],
  [1500, '1.5k'],
  [12_345, '12.34k'],
  [2_345_678, '2.34m'],
  [2_500_000, '2.5m'],
  [7e9, '7b'],
  [7_000_000_000, '7b'],
  [1.25e12, '1.25t'],
  [3.2e12, '3.2t'],
  [5e15, '5000t'],
  [-1500, '-1.5k'],
  ['nope', '0'],
])('compactAmount(%j) = %s', (input, text) => {
  expect(compactAmount(input)).toBe(text)
})
