import { describe, expect, test } from 'vitest'
import { stringToHex } from 'viem'
import { clip, describeMessage, revealInvisible } from './message-display.ts'

describe('describeMessage: how personal_sign bytes are shown', () => {
  test.each([
    ['plain text', stringToHex('hello world'), { as: 'text', shown: 'hello world', warning: null }],
    ['text over lines, with tabs', stringToHex('Sign in\n\tnonce: 1'), { as: 'text', shown: 'Sign in\n\tnonce: 1', warning: null }],
    [
      'text with U+202E (right-to-left override)',
      stringToHex('pay \u202Egnp.exe'),
      { as: 'bytes', shown: stringToHex('pay \u202Egnp.exe'), warning: 'invisible' },
    ],
    ['text with U+200B (zero-width space)', stringToHex('pay\u200Bpal'), { as: 'bytes', shown: stringToHex('pay\u200Bpal'), warning: 'invisible' }],
    ['text with control characters', stringToHex('a\u0007b\u001b[2J'), { as: 'bytes', shown: stringToHex('a\u0007b\u001b[2J'), warning: 'invisible' }],
    ['a hex param that decodes to UTF-8', '0x68656c6c6f', { as: 'text', shown: 'hello', warning: null }],
    ['hex that is not UTF-8', '0x00ff10', { as: 'bytes', shown: '0x00ff10', warning: null }],
    ['the bytes 0xdeadbeef', '0xdeadbeef', { as: 'bytes', shown: '0xdeadbeef', warning: null }],
    [
      'the string "0xdeadbeef" passed as text',
      stringToHex('0xdeadbeef'),
      { as: 'text', shown: '0xdeadbeef', warning: 'looks-like-hex', bytes: stringToHex('0xdeadbeef') },
    ],
    ['nothing at all', '0x', { as: 'bytes', shown: '0x', warning: null }],
    // An operation or transaction hash a site asks to have signed: blind signing, said so.
    [
      '32 bytes that are not text (a hash)',
      '0x8ee2a0b7f9c3d1e4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8',
      { as: 'bytes', shown: '0x8ee2a0b7f9c3d1e4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8', warning: 'hash' },
    ],
    ['31 bytes that are not text', `0xff${'00'.repeat(30)}`, { as: 'bytes', shown: `0xff${'00'.repeat(30)}`, warning: null }],
    ['32 bytes of plain text', stringToHex('a'.repeat(32)), { as: 'text', shown: 'a'.repeat(32), warning: null }],
  ] as const)('%s', (_, bytes, view) => expect(describeMessage(bytes)).toEqual(view))
})

describe('clip: nothing is hidden without saying so', () => {
  test('short messages are whole', () => expect(clip('hello', 10)).toEqual({ visible: 'hello', hidden: 0, total: 5 }))
  test('long ones say how much is left out', () => expect(clip('x'.repeat(25), 10)).toEqual({ visible: 'x'.repeat(10), hidden: 15, total: 25 }))
  test('characters, not UTF-16 halves', () => expect(clip('😀'.repeat(3), 2)).toEqual({ visible: '😀😀', hidden: 1, total: 3 }))
})

describe('revealInvisible: typed data keeps its shape, invisible characters become visible escapes', () => {
  test.each([
    ['{"a": "plain"}', { text: '{"a": "plain"}', revealed: false }],
    ['{"to": "pay\u202Eevil"}', { text: '{"to": "pay\\u202eevil"}', revealed: true }],
    ['{"x": "a\u200Bb"}', { text: '{"x": "a\\u200bb"}', revealed: true }],
    ['{\n  "a": 1\n}', { text: '{\n  "a": 1\n}', revealed: false }],
  ])('%j', (input, out) => expect(revealInvisible(input)).toEqual(out))
})
