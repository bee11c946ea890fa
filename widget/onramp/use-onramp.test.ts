import { expect, test } from 'vitest'
import { canonicalAmount } from './use-onramp.ts'

test.each([
  ['150000', '150000'],
  ['0150000', '150000'],
  ['150000.', '150000'],
  ['150000.5', '150000.5'],
  ['150000.50', '150000.5'],
  ['0', null],
  ['0.00', null],
  ['', null],
  ['.5', null],
  ['1.234', null],
  ['1e5', null],
  ['-5', null],
])('canonicalAmount(%j) = %j', (typed, canonical) => {
  expect(canonicalAmount(typed)).toBe(canonical)
})
