import { expect, test } from 'vitest'
import { readFrameUrl } from '../bridge/frame-url.ts'
import { frameUrl, resolveOptions } from './options.ts'

test("defaults: sandbox, dark, en, the app's chains (none named), the local provider", () => {
  expect(resolveOptions({ appId: 'demo' })).toEqual({
    appId: 'demo',
    env: 'sandbox',
    theme: 'dark',
    locale: 'en',
    mode: 'frame',
    chains: [],
    handshakeTimeout: 15_000,
    providerOrigin: 'http://localhost:8787',
  })
  expect(resolveOptions({ appId: 'demo' }, 'https://wallet.example/kit.js').providerOrigin).toBe('https://wallet.example')
  expect(resolveOptions({ appId: 'demo', providerUrl: 'https://p.example/x' }, 'https://wallet.example').providerOrigin).toBe('https://p.example')
})

test.each([
  [{}, 'appId is required'],
  [{ appId: '' }, 'appId is required'],
  [{ appId: 'demo', env: 'staging' }, 'env must be one of sandbox, production'],
  [{ appId: 'demo', theme: 'blue' }, 'theme must be one of dark, light'],
  [{ appId: 'demo', locale: 'fr' }, 'locale must be one of en, id'],
  [{ appId: 'demo', mode: 'window' }, 'mode must be one of frame, popup'],
  [{ appId: 'demo', chains: [] }, 'chains must be a non-empty list of chain ids'],
  [{ appId: 'demo', chains: ['1'] }, 'chains must be a non-empty list of chain ids'],
])('%j → %s', (options, message) => {
  expect(() => resolveOptions(options as never)).toThrow(message)
})

test("env 'production' never falls back to the local sandbox: it needs a provider URL, given or kit.js's own origin", () => {
  expect(() => resolveOptions({ appId: 'demo', env: 'production' })).toThrow("env 'production' needs a providerUrl (the default is the local sandbox)")
  expect(resolveOptions({ appId: 'demo', env: 'production', providerUrl: 'https://wallet.example' }).providerOrigin).toBe('https://wallet.example')
  // Loaded from kit.js: the script's own origin is the provider.
  expect(resolveOptions({ appId: 'demo', env: 'production' }, 'https://wallet.example').providerOrigin).toBe('https://wallet.example')
  expect(resolveOptions({ appId: 'demo', env: 'sandbox' }).providerOrigin).toBe('http://localhost:8787')
})

test('the frame URL carries what the widget reads', () => {
  const url = new URL(
    frameUrl(
      resolveOptions({ appId: 'demo', env: 'production', providerUrl: 'http://localhost:8787', theme: 'light', locale: 'id', chains: [31338, 31337] }),
      'http://127.0.0.1:5173',
    ),
  )
  expect(url.origin + url.pathname).toBe('http://localhost:8787/widget/')
  expect(Object.fromEntries(url.searchParams)).toEqual({
    appId: 'demo',
    env: 'production',
    theme: 'light',
    locale: 'id',
    chains: '31338,31337',
    origin: 'http://127.0.0.1:5173',
  })
})

test("mode 'popup' reaches the frame; the default adds nothing to the URL", () => {
  const popup = new URL(frameUrl(resolveOptions({ appId: 'demo', mode: 'popup' }), 'http://127.0.0.1:5173'))
  expect(popup.searchParams.get('mode')).toBe('popup')
  const frame = new URL(frameUrl(resolveOptions({ appId: 'demo' }), 'http://127.0.0.1:5173'))
  expect(frame.searchParams.has('mode')).toBe(false)
})

test("no chains named: the frame URL names none, and the frame reads that as all the app's chains", () => {
  const url = new URL(frameUrl(resolveOptions({ appId: 'demo' }), 'http://127.0.0.1:5173'))
  expect(url.searchParams.get('chains')).toBe('')
  expect(readFrameUrl(url).chains).toEqual([])
})
