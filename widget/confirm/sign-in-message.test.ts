import { createSiweMessage } from 'viem/siwe'
import { describe, expect, test } from 'vitest'
import { foreignSignIn, ownSignIn } from './sign-in-message.ts'

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
