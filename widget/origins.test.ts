import { describe, expect, test } from 'vitest'
import { isAllowedOrigin, originMatches } from './origins.ts'

describe('originMatches', () => {
  test.each([
    ['http://localhost:5173', 'http://localhost:*', true],
    ['http://127.0.0.1:5173', 'http://localhost:*', false],
    ['https://localhost:5173', 'http://localhost:*', false],
    ['http://localhost', 'http://localhost:*', true],
    ['https://app.example.com', 'https://app.example.com', true],
    ['https://app.example.com:8443', 'https://app.example.com', false],
    ['https://evil.example.com', 'https://app.example.com', false],
    ['https://a.example.com', 'https://*.example.com', true],
    ['https://example.com.evil.io', 'https://*.example.com', false],
    ['http://localhost:5173/path', 'http://localhost:*', false],
    ['not a url', 'http://localhost:*', false],
    ['http://localhost:5173', 'garbage', false],
  ])('%s against %s → %s', (origin, pattern, expected) => {
    expect(originMatches(origin, pattern)).toBe(expected)
  })

  test('a list allows when any pattern matches', () => {
    expect(isAllowedOrigin('http://127.0.0.1:9', ['http://localhost:*', 'http://127.0.0.1:*'])).toBe(true)
    expect(isAllowedOrigin('http://127.0.0.2:9', ['http://localhost:*', 'http://127.0.0.1:*'])).toBe(false)
    expect(isAllowedOrigin('http://localhost:9', [])).toBe(false)
  })
})
