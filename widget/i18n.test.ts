import { beforeAll, expect, test } from 'vitest'
import { loadMessages, messages } from './i18n.ts'

beforeAll(() => loadMessages('id'))

test('every Indonesian message is translated (none left in English except shared terms)', () => {
  const shared = new Set(['nonce', 'gas'])
  for (const [key, value] of Object.entries(messages.id)) {
    if (shared.has(key) || typeof value !== 'string') continue
    expect(value, key).not.toBe(messages.en[key as keyof typeof messages.en])
  }
  expect(messages.id.resendIn(5)).toBe('Kirim ulang dalam 5 dtk')
})

test('the English strings are the product wording, word for word', () => {
  expect(messages.en.loginTitle).toBe('Login or Sign Up')
  expect(messages.en.loginSubtitle).toBe('Your gateway to the decentralized world. Simple, Powerful, Yours.')
  expect(messages.en.createdTitle).toBe('Wallet Created Successfully!')
  expect(messages.en.walletsTitle).toBe('Select Your Log In Method')
  expect(messages.en.copied).toBe('Copied to clipboard')
  // The smart wallet's title, its account statuses and the Activate action.
  expect(messages.en.smartWallet).toBe('Smart Wallet')
  expect([messages.en.notActivated, messages.en.activatingStatus, messages.en.activated, messages.en.unknownStatus]).toEqual([
    'Not Activated',
    'Activating',
    'Activated',
    'Unknown',
  ])
  expect([messages.en.activate, messages.en.activatingPending]).toEqual(['Activate', 'Activating...'])
})
