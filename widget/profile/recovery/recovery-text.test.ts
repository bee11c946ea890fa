import { expect, test } from 'vitest'
import { recoveryText } from './recovery-text.ts'

test('every Indonesian string of the recovery page is translated', () => {
  const flat = (text: object): [string, unknown][] =>
    Object.entries(text).flatMap(([key, value]) =>
      typeof value === 'object' ? flat(value).map(([k, v]) => [`${key}.${k}`, v] as [string, unknown]) : [[key, value]],
    )
  const en = new Map(flat(recoveryText.en))
  const id = flat(recoveryText.id)
  expect(id.map(([key]) => key)).toEqual([...en.keys()])
  for (const [key, value] of id)
    expect(typeof value === 'function' ? value('x') : value, key).not.toBe(
      typeof value === 'function' ? (en.get(key) as (s: string) => string)('x') : en.get(key),
    )
})
