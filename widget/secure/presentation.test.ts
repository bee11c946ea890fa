import { stringToHex } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { describe, expect, test } from 'vitest'
import type { Confirmation } from '../ui-state.ts'
import { type ConfirmationContext, type ConfirmationPlace, confirmableInFrame, confirmationPlace } from './presentation.ts'

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
