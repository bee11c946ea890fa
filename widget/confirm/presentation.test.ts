import { stringToHex } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { describe, expect, test } from 'vitest'
import type { Confirmation } from '../ui-state.ts'
import {
  type ConfirmationContext,
  type ConfirmationPlace,
  clip,
  confirmableInFrame,
  confirmationPlace,
  describeMessage,
  foreignSignIn,
  ownSignIn,
  revealInvisible,
} from './presentation.ts'

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

const address = '0xA0Cf798816D4b9b9866b5330EEa46a18382f251e'
const siwe = (domain: string, scheme?: string) =>
  createSiweMessage({ address, chainId: 31337, domain, nonce: 'foobarbaz1', uri: `http://${domain}/`, version: '1', ...(scheme && { scheme }) })

describe('foreignSignIn: a sign-in message for another site than the one asking', () => {
  test('for the asking site itself: nothing to say', () => {
    expect(foreignSignIn(siwe('127.0.0.1:5173'), 'http://127.0.0.1:5173')).toBeNull()
    expect(foreignSignIn(siwe('127.0.0.1:5173', 'http'), 'http://127.0.0.1:5173')).toBeNull()
  })
  test('plain text that is not a sign-in: nothing to say', () => expect(foreignSignIn('hello', 'http://127.0.0.1:5173')).toBeNull())
  test.each([
    ['another domain', siwe('app.uniswap.org'), 'app.uniswap.org'],
    ['the same host on another port', siwe('127.0.0.1:5174'), '127.0.0.1:5174'],
    ['the same host under another scheme', siwe('127.0.0.1:5173', 'https'), 'https://127.0.0.1:5173'],
    ['the phrase without the format (a lax verifier may take it)', 'bank.example wants you to sign in with your Ethereum account: 0xabc', 'bank.example'],
  ])('%s: named', (_, text, claimed) => expect(foreignSignIn(text, 'http://127.0.0.1:5173')).toBe(claimed))
})

describe('ownSignIn: a sign-in message for the asking site, shown as a sign-in', () => {
  test('for the asking site: its domain', () => {
    expect(ownSignIn(siwe('127.0.0.1:5173'), 'http://127.0.0.1:5173')).toBe('127.0.0.1:5173')
    expect(ownSignIn(siwe('127.0.0.1:5173', 'http'), 'http://127.0.0.1:5173')).toBe('127.0.0.1:5173')
  })
  test.each([
    ['plain text', 'hello'],
    ['another site', siwe('app.uniswap.org')],
    ['another scheme', siwe('127.0.0.1:5173', 'https')],
    ['the phrase without the format', '127.0.0.1:5173 wants you to sign in with your Ethereum account: 0xabc'],
  ])('%s: null', (_, text) => expect(ownSignIn(text, 'http://127.0.0.1:5173')).toBeNull())
})

/** A plain-text message in a frame that is seen, on Chromium, with a secure window to hand. */
const base: ConfirmationContext = {
  secureWindow: true,
  mode: 'frame',
  onDevice: false,
  confirmableInFrame: true,
  gate: 'clear',
  busy: false,
  visibilityProvable: true,
}

describe('where a confirmation happens', () => {
  const table: [string, Partial<ConfirmationContext>, ConfirmationPlace][] = [
    ['a plain-text message in a frame seen whole', {}, { where: 'here', why: 'frame-seen', announce: false }],
    ['the same while the gate still arms', { gate: 'arming' }, { where: 'here', why: 'frame-seen', announce: false }],
    ['the frame covered or restyled for now', { gate: 'unsafe' }, { where: 'window', why: 'frame-not-seen', announce: false }],
    ['a request that moves value or grants authority', { confirmableInFrame: false }, { where: 'window', why: 'moves-value', announce: true }],
    ['the host chose popup', { mode: 'popup' }, { where: 'window', why: 'host-chose-popup', announce: true }],
    [
      'a browser that cannot tell whether the frame is seen: said up front',
      { visibilityProvable: false, gate: 'unsafe' },
      { where: 'window', why: 'frame-not-seen', announce: true },
    ],
    ['a request already being carried out stays here', { busy: true, confirmableInFrame: false }, { where: 'here', why: 'under-way', announce: false }],
    ['a WalletConnect wallet: on the device', { onDevice: true, confirmableInFrame: false }, { where: 'device', why: 'on-device', announce: false }],
    [
      'in the secure window itself (no window to open)',
      { secureWindow: false, confirmableInFrame: false, mode: 'popup' },
      { where: 'here', why: 'no-secure-window', announce: false },
    ],
    [
      'in the secure window, a device wallet still confirms on the device',
      { secureWindow: false, onDevice: true },
      { where: 'device', why: 'on-device', announce: false },
    ],
  ]
  test.each(table)('%s', (_name, change, place) => {
    expect(confirmationPlace({ ...base, ...change })).toEqual(place)
  })
})

const from = '0x00000000000000000000000000000000000000aa'
const site = 'http://127.0.0.1:5173'
const signIn = (domain: string) =>
  stringToHex(createSiweMessage({ address: from, chainId: 31337, domain, nonce: 'foobarbaz1', uri: `http://${domain}/`, version: '1' }))
const request = (kind: Confirmation['kind'], payload: Partial<Confirmation['payload']>) => ({ kind, payload: { from, chainId: 31337, ...payload } })

describe('confirmableInFrame: only a plain-text message may be confirmed in the frame', () => {
  test('a sign-in message for the asking site is plain text: the frame', () => {
    expect(confirmableInFrame(request('message', { message: signIn('127.0.0.1:5173') }), site)).toBe(true)
  })
  test('a plain-text message: the frame, under the gate', () => {
    expect(confirmableInFrame(request('message', { message: stringToHex('Sign in to example.com') }), site)).toBe(true)
  })
  test.each([
    ['a transaction with value', request('transaction', { to: from, value: '9' })],
    ['a transaction of 0 with no data (it still pays a fee)', request('transaction', { to: from, value: '0' })],
    ['a contract call', request('transaction', { to: from, value: '0', data: '0xa9059cbb' })],
    ['a batch', request('transaction', { calls: [{ to: from, value: '0' }] })],
    ['typed data', request('typed-data', { message: '{"primaryType":"Permit"}' })],
    ['32 opaque bytes (a hash)', request('message', { message: `0x${'ab'.repeat(32)}` })],
    ['bytes that are not text', request('message', { message: '0x00ff10' })],
    ['text hiding characters', request('message', { message: stringToHex('pay\u200Bpal') })],
    ['text that reads as hex', request('message', { message: stringToHex('0xdeadbeef') })],
    ['a sign-in message for another site', request('message', { message: signIn('app.uniswap.org') })],
  ])('%s: the secure window', (_, confirmation) => expect(confirmableInFrame(confirmation, site)).toBe(false))
})
