import { describe, expect, test } from 'vitest'
import { signInMethodNames, takesSignInName } from './sign-in-names.ts'

describe("a wallet may not take the name of one of the modal's sign-in methods", () => {
  test('the sign-in methods, as the connect modal shows them', () => {
    expect(signInMethodNames).toEqual(['Google', 'Apple', 'Telegram', 'WhatsApp', 'Email'])
  })

  test.each([
    ['Google', 'Google'],
    ['google', 'Google'],
    ['GOOGLE', 'Google'],
    ['  Google  ', 'Google'],
    ['G o o g l e', 'Google'],
    ['G.o.o.g.l.e', 'Google'],
    ['Goo-gle', 'Google'],
    ['Gооgle', 'Google'], // Cyrillic о (U+043E)
    ['GΟΟGLE', 'Google'], // Greek capital omicron
    ['Ｇｏｏｇｌｅ', 'Google'], // fullwidth
    ['𝐆𝐨𝐨𝐠𝐥𝐞', 'Google'], // mathematical bold
    ['G\u200Boogle', 'Google'], // zero-width space
    ['\u202EGoogle', 'Google'], // bidi override
    ['Gôógle', 'Google'], // accents
    ['G00gle', 'Google'],
    ['Goog1e', 'Google'],
    ['GoogIe', 'Google'], // capital I for l
    ['Continue with Google', 'Google'],
    ['Sign in with Goo gle', 'Google'],
    ['Google Wallet', 'Google'],
    ['Apple', 'Apple'],
    ['Аррlе', 'Apple'], // Cyrillic А, р, р, е
    ['App1e', 'Apple'],
    ['Telegram', 'Telegram'],
    ['Te1egram', 'Telegram'],
    ['WhatsApp', 'WhatsApp'],
    ['Whats App', 'WhatsApp'],
    ['Whatsapp', 'WhatsApp'],
    ['Email', 'Email'],
    ['E-mail', 'Email'],
    ['e‐mail', 'Email'], // U+2010 hyphen
    ['EMAIL login', 'Email'],
  ])('%j takes the name %s', (name, method) => {
    expect(takesSignInName(name)).toBe(method)
  })

  test.each([
    'MetaMask',
    'Rabby Wallet',
    'Coinbase Wallet',
    'Trust Wallet',
    'Pineapple',
    'Gmail Wallet',
    'Browser Wallet',
    'Test Wallet',
    'Phantom',
    '1inch Wallet',
    'OKX Wallet',
    'Rainbow',
  ])('%j is a fine wallet name', (name) => {
    expect(takesSignInName(name)).toBeUndefined()
  })
})
