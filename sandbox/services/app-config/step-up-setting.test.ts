import { describe, expect, test } from 'vitest'
import { readSeed } from './apps.ts'
import { checkStepUpSetting, transactionStepUpAbove } from './step-up-setting.ts'

describe('the stepUp app setting', () => {
  test('no seeded app but the step-up one sets a threshold, and it sets one on the first local chain only', () => {
    const withRules = readSeed().filter((seed) => seed.settings.stepUp)
    expect(withRules.map((seed) => seed.appId)).toEqual(['stepup'])
    expect(transactionStepUpAbove(withRules[0]!.settings, 31337, 18)).toBe(10_000_000_000_000_000n)
    expect(transactionStepUpAbove(withRules[0]!.settings, 31338, 18)).toBeUndefined()
  })

  test.each([
    ['not an object', 'yes', 'stepUp must be an object or null'],
    ['a list of thresholds', { transactionAbove: ['1'] }, 'stepUp.transactionAbove must map chain ids to amounts'],
    ['a chain that is no id', { transactionAbove: { mainnet: '1' } }, 'stepUp.transactionAbove: "mainnet" is not a chain id'],
    [
      'an amount as a number',
      { transactionAbove: { 1: 1 } },
      'stepUp.transactionAbove[1] must be an amount in the native unit as a decimal string, e.g. "0.5"',
    ],
    ['a negative amount', { transactionAbove: { 1: '-1' } }, 'stepUp.transactionAbove[1] must be an amount in the native unit as a decimal string, e.g. "0.5"'],
  ])('a seed with %s is refused', (_, setting, problem) => {
    expect(checkStepUpSetting(setting)).toBe(problem)
  })

  test('absent or null is no rule; a threshold edited into something unreadable is 0, never none', () => {
    expect(checkStepUpSetting(undefined)).toBeUndefined()
    expect(checkStepUpSetting(null)).toBeUndefined()
    expect(transactionStepUpAbove({}, 1, 18)).toBeUndefined()
    expect(transactionStepUpAbove({ stepUp: null }, 1, 18)).toBeUndefined()
    expect(transactionStepUpAbove({ stepUp: { transactionAbove: { 1: 'lots' } } }, 1, 18)).toBe(0n)
    expect(transactionStepUpAbove({ stepUp: { transactionAbove: { 1: '1.5' } } }, 1, 6)).toBe(1_500_000n)
  })
})
