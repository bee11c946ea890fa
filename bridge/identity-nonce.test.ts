import { expect, test } from 'vitest'
import { checkCall, isIdentityNonce, widgetChecks } from './validate.ts'

/** The frame's check of a page's identity-token call (the provider takes the same nonces and no others). */
const check = (...args: unknown[]) => checkCall(widgetChecks, 'identityToken', args)?.error

test('a nonce of 8 to 128 visible ASCII characters, or none, passes', () => {
  for (const nonce of [undefined, 'abcdefgh', 'x'.repeat(128), '!~"#$%&()*+,-./0123456789:;<=>?@[\\]^_`{|}'])
    expect(check(nonce), String(nonce)).toBeUndefined()
})

test('anything else is -32602 before any handler runs: short, long, blank, control, non-ASCII, not a string, extra arguments', () => {
  const bad: unknown[] = [
    '',
    'abcdefg',
    'x'.repeat(129),
    'x'.repeat(100_000),
    'abcd efgh',
    'abcdefgh\n',
    'abcd\u0000efgh',
    'abcdéfghij',
    'abcd\u200befgh',
    'abcd\u202eefgh',
    12345678,
    null,
    ['abcdefghij'],
    { toString: () => 'abcdefghij' },
    new String('abcdefghij'),
  ]
  for (const nonce of bad) expect(check(nonce), JSON.stringify(String(nonce)).slice(0, 40)).toMatchObject({ code: -32602 })
  expect(check()).toMatchObject({ code: -32602 })
  expect(check('abcdefgh', 'more')).toMatchObject({ code: -32602 })
  expect(isIdentityNonce(['abcdefghij'])).toBe(false)
})
