import { describe, expect, test } from 'vitest'
import { checkFrameOpenUrl, checkOpenUrl, walletLinkSchemes } from './open-url.ts'

describe('openUrl: an allowlist of schemes', () => {
  test.each([
    'https://example.com/onramp?x=1',
    'HTTPS://Example.com/',
    'http://localhost:8787/onramp',
    'http://127.0.0.1:5173/demo/',
    'http://[::1]:8787/',
    'metamask://wc?uri=abc',
    'trust://wc?uri=abc',
    'rainbow://wc?uri=abc',
    'cbwallet://wc?uri=abc',
    'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2',
  ])('%s is opened', (url) => {
    expect(checkOpenUrl(url)).toBeUndefined()
  })

  test.each([
    ['javascript:alert(1)', 'scheme javascript: is not allowed'],
    ['JaVaScRiPt:alert(1)', 'scheme javascript: is not allowed'],
    // Judged as the browser will parse them: leading spaces and controls dropped, tabs and newlines removed.
    [' javascript:alert(1)', 'scheme javascript: is not allowed'],
    ['\u0000\tjavascript:alert(1)', 'scheme javascript: is not allowed'],
    ['java\nscript:alert(1)', 'scheme javascript: is not allowed'],
    ['j\ta\rv\na script:alert(1)', 'url must be absolute'],
    ['data:text/html,<script>alert(1)</script>', 'scheme data: is not allowed'],
    ['blob:https://example.com/0d6d3c4e-8a7f-4a8e-9f1c-1b2c3d4e5f60', 'scheme blob: is not allowed'],
    ['file:///etc/passwd', 'scheme file: is not allowed'],
    ['vbscript:msgbox(1)', 'scheme vbscript: is not allowed'],
    ['intent://scan/#Intent;scheme=zxing;package=com.evil;end', 'scheme intent: is not allowed'],
    ['ms-officecmd:open', 'scheme ms-officecmd: is not allowed'],
    ['about:blank', 'scheme about: is not allowed'],
    ['ftp://example.com/x', 'scheme ftp: is not allowed'],
    ['http://evil.example/phish', 'http: is for loopback only'],
    ['http://localhost.evil.example/', 'http: is for loopback only'],
    ['http://127.0.0.1.evil.example/', 'http: is for loopback only'],
    ['/relative', 'url must be absolute'],
    ['https://', 'url must be absolute'],
    [42, 'url must be a string'],
    [`https://example.com/${'a'.repeat(4096)}`, 'url must be a string'],
  ])('%j is refused (%s)', (url, reason) => {
    expect(checkOpenUrl(url)).toBe(reason)
  })

  test('the wallet deep-link schemes are a short, fixed list', () => {
    expect(walletLinkSchemes).toEqual(['metamask', 'trust', 'rainbow', 'cbwallet', 'wc'])
  })
})

test("the frame never asks the page to open a WalletConnect pairing (its key), however it is encoded; the page's own rule still applies", () => {
  const uri =
    'wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303'
  for (const url of [uri, `metamask://wc?uri=${encodeURIComponent(uri)}`, `https://example.com/?next=${encodeURIComponent(encodeURIComponent(uri))}`])
    expect(checkFrameOpenUrl(url)).toBe('a WalletConnect pairing URI is never handed to the page')
  expect(checkFrameOpenUrl('https://example.com/onramp')).toBeUndefined()
  expect(checkFrameOpenUrl('javascript:alert(1)')).toBe('scheme javascript: is not allowed')
})
