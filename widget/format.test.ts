import { expect, test } from 'vitest'
import { compactAmount, formatAmount, shortAddress } from './format.ts'

test('addresses keep the first 6 and last 4 characters', () => {
  expect(shortAddress('0x1234567890abcdef1234567890abcdef12345678')).toBe('0x1234…5678')
  expect(shortAddress('0x12')).toBe('0x12')
})

test.each([
  [0, '0'],
  [0.5, '0.5'],
  [0.123456, '0.12'],
  [1, '1.00'],
  [12.3456, '12.35'],
  [999.994, '999.99'],
  [1000, '1,000'],
  [123456.78, '123,456'],
  ['9.5', '9.50'],
  ['nope', '0'],
])('formatAmount(%j) = %s', (input, out) => {
  expect(formatAmount(input)).toBe(out)
})

test.each([
  [999, '999.00'],
  [1500, '1.5k'],
  [2_345_678, '2.35m'],
  [7_000_000_000, '7b'],
  [1.25e12, '1.25t'],
  [5e15, '5000t'],
])('compactAmount(%j) = %s', (input, out) => {
  expect(compactAmount(input)).toBe(out)
})
