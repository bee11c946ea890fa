import { describe, expect, test } from 'vitest'
import { isAllowedOrigin, isOriginPattern, originMatches } from './origins.ts'

describe('originMatches', () => {
  test.each([
    // Ports: `*` is any, none is the scheme's default.
    ['http://localhost:5173', 'http://localhost:*', true],
    ['http://localhost', 'http://localhost:*', true],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:*', true],
    ['http://127.0.0.1:5173', 'http://localhost:*', false],
    ['https://app.example.com', 'https://app.example.com', true],
    ['https://app.example.com', 'https://app.example.com:443', true],
    ['http://app.example.com', 'http://app.example.com:80', true],
    ['https://app.example.com:8443', 'https://app.example.com', false],
    ['https://app.example.com:8443', 'https://app.example.com:8443', true],
    ['https://app.example.com:80', 'https://app.example.com', false],
    // Schemes are exact.
    ['https://localhost:5173', 'http://localhost:*', false],
    ['http://app.example.com', 'https://app.example.com', false],
    // Hosts are exact, or one or more labels under a wildcard.
    ['https://evil.example.com', 'https://app.example.com', false],
    ['http://localhost.evil.example:5173', 'http://localhost:*', false],
    ['https://shop.example.com', 'https://*.example.com', true],
    ['https://a.b.example.com', 'https://*.example.com', true],
    ['https://example.com', 'https://*.example.com', false],
    ['https://evilexample.com', 'https://*.example.com', false],
    // Letter case: scheme and host compare case-insensitively, on either side.
    ['HTTPS://APP.EXAMPLE.COM', 'https://app.example.com', true],
    ['https://app.example.com', 'HTTPS://App.Example.Com', true],
    ['https://SHOP.example.com', 'https://*.EXAMPLE.com', true],
    // IPv6 literals, in brackets, compared as the URL parser writes them.
    ['http://[::1]:5173', 'http://[::1]:*', true],
    ['http://[::1]:5173', 'http://[0:0:0:0:0:0:0:1]:5173', true],
    ['http://[::1]:5173', 'http://localhost:*', false],
    ['http://[::2]:5173', 'http://[::1]:*', false],
    // `*`: any http(s) origin, nothing opaque.
    ['https://any.example', '*', true],
    ['http://[::1]:5173', '*', true],
    ['null', '*', false],
    ['file:///etc/passwd', '*', false],
    ['chrome-extension://abcdefghijklmnop', '*', false],
    ['null', 'http://localhost:*', false],
    ['not a url', 'http://localhost:*', false],
    ['', '*', false],
    ['http://localhost:5173', 'garbage', false],
    ['http://localhost:5173', 'http://localhost:99999', false],
  ])('%s against %s → %s', (origin, pattern, expected) => {
    expect(originMatches(origin, pattern)).toBe(expected)
  })

  // Each of these would pass a check that looks for a suffix or a prefix in the raw string.
  test.each([
    ['https://evil.example.com.attacker.net', 'https://*.example.com'],
    ['https://example.com.evil.io', 'https://*.example.com'],
    ['https://attacker.net/?x=.example.com', 'https://*.example.com'],
    ['https://attacker.net#.example.com', 'https://*.example.com'],
    ['https://example.com@attacker.net', 'https://example.com'],
    ['https://app.example.com@attacker.net', 'https://*.example.com'],
    ['https://user:pw@app.example.com', 'https://app.example.com'],
    ['https://app.example.com/', 'https://app.example.com'],
    ['https://app.example.com/path', 'https://app.example.com'],
    ['http://localhost:5173/path', 'http://localhost:*'],
    ['https://app.example.com:443', 'https://app.example.com'],
    // A trailing dot is another origin to the browser.
    ['https://app.example.com.', 'https://app.example.com'],
    ['https://shop.example.com.', 'https://*.example.com'],
    // Unicode hosts reach the frame as punycode; a raw Unicode string is not an origin.
    ['https://exämple.com', 'https://xn--exmple-cua.com'],
    ['https://аpp.example.com', 'https://app.example.com'], // Cyrillic а
    ['https://xn--pp-8cd.example.com', 'https://app.example.com'],
    [' https://app.example.com', 'https://app.example.com'],
  ])('%s does not pass %s', (origin, pattern) => {
    expect(originMatches(origin, pattern)).toBe(false)
  })

  test('punycode is compared as punycode: a Unicode subdomain is still a subdomain', () => {
    expect(originMatches('https://xn--exmple-cua.com', 'https://xn--exmple-cua.com')).toBe(true)
    expect(originMatches('https://xn--pp-8cd.example.com', 'https://*.example.com')).toBe(true)
  })

  test('a list allows when any pattern matches', () => {
    expect(isAllowedOrigin('http://127.0.0.1:9', ['http://localhost:*', 'http://127.0.0.1:*'])).toBe(true)
    expect(isAllowedOrigin('http://127.0.0.2:9', ['http://localhost:*', 'http://127.0.0.1:*'])).toBe(false)
    expect(isAllowedOrigin('http://localhost:9', [])).toBe(false)
  })
})

describe('isOriginPattern', () => {
  test('source expressions app config may hold', () => {
    for (const good of ['*', 'http://localhost:*', 'https://*.example.com', 'https://app.example.com:8443', 'http://[::1]:5173', 'HTTPS://APP.EXAMPLE.COM'])
      expect(isOriginPattern(good), good).toBe(true)
  })

  test('patterns that could break a CSP header, or match more than meant, are rejected', () => {
    for (const bad of [
      "'self'",
      'https://a.example; script-src *',
      'https://a.example/path',
      'https://a b.example',
      'javascript:alert(1)',
      'https://*',
      'https://*example.com',
      'https://a.*.example.com',
      'https://app.example.com.',
      'https://exämple.com',
      'https://user@app.example.com',
      'ftp://app.example.com',
      '*.example.com',
      '',
    ])
      expect(isOriginPattern(bad), bad).toBe(false)
  })
})
