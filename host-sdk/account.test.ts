import { expect, test } from 'vitest'
import { formatWei } from './account.ts'

// formatAmount and shortAddress are tested where they are written: bridge/format.test.ts.
test('wei in hex to whole units, shown as the profile shows them', () => {
  expect(formatWei('0x8ac7230489e80000')).toBe('10.00') // 10 ETH
  expect(formatWei('0x0')).toBe('0')
  expect(formatWei('0x42f60458504e3140000')).toBe('19,763') // 19,763.4 ETH: whole numbers, as in the profile
})
