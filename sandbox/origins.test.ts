import { describe, expect, test } from 'vitest'
import { isOriginPattern, matchesOrigin } from './origins.ts'

describe('matchesOrigin', () => {
  test.each([
    ['http://localhost:5173', 'http://localhost:*', true],
    ['http://localhost', 'http://localhost:*', true],
    ['https://localhost:5173', 'http://localhost:*', false],
    ['http://localhost.evil.example:5173', 'http://localhost:*', false],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:*', true],
    ['https://app.example.com', 'https://app.example.com', true],
    ['https://app.example.com:8443', 'https://app.example.com', false],
    ['https://app.example.com:8443', 'https://app.example.com:8443', true],
    ['https://shop.example.com', 'https://*.example.com', true],
    ['https://example.com', 'https://*.example.com', false],
    ['https://evilexample.com', 'https://*.example.com', false],
    ['null', 'http://localhost:*', false],
    ['null', '*', false],
    ['https://any.example', '*', true],
    ['http://localhost:5173/path', 'http://localhost:*', false],
  ])('%s against %s → %s', (origin, pattern, expected) => {
    expect(matchesOrigin(origin, pattern)).toBe(expected)
  })

  test('patterns that could break a CSP header are rejected', () => {
    expect(isOriginPattern('http://localhost:*')).toBe(true)
    expect(isOriginPattern('https://*.example.com')).toBe(true)
    for (const bad of ["'self'", 'https://a.example; script-src *', 'https://a.example/path', 'https://a b.example', 'javascript:alert(1)'])
      expect(isOriginPattern(bad)).toBe(false)
  })
})
