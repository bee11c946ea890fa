import { stringToHex } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { describe, expect, test } from 'vitest'
import type { Confirmation } from '../ui-state.ts'
import { confirmableInFrame } from './placement.ts'

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
