import { expect, test } from 'vitest'
import { readQuantity } from './tx-fields.ts'

/** The value read, or the refusal's message. */
const read = (value: unknown) => {
  try {
    return readQuantity(value, 'value')
  } catch (err) {
    return (err as Error).message
  }
}

test('a 0x-hex quantity has 1 to 64 digits of either case; decimal strings and safe numbers read too', () => {
  const refused = 'value must be a non-negative integer (decimal string or 0x-hex)'
  expect(read('0x1')).toBe(1n)
  expect(read('0xAbC')).toBe(0xabcn)
  expect(read(`0x${'f'.repeat(64)}`)).toBe(2n ** 256n - 1n)
  expect(read(`0x0${'f'.repeat(64)}`)).toBe(refused)
  expect(read('0x')).toBe(refused)
  expect(read('0x1g')).toBe(refused)
  expect(read(' 0x1')).toBe(refused)
  expect(read('12')).toBe(12n)
  expect(read(7)).toBe(7n)
})
