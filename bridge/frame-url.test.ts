import { expect, test } from 'vitest'
import { buildFrameUrl, readFrameUrl, secureWindowUrl, type FrameParams } from './frame-url.ts'

test('what the host writes in the frame URL, the frame reads back', () => {
  const params: FrameParams = {
    appId: 'a b&c=d',
    env: 'production',
    hostOrigin: 'http://127.0.0.1:5173',
    theme: 'light',
    locale: 'id',
    chains: [31338, 31337],
    mode: 'popup',
    secureWindow: false,
  }
  const url = new URL(buildFrameUrl({ ...params, providerOrigin: 'http://localhost:8787' }, 'http://127.0.0.1:5173'))
  expect(url.origin + url.pathname).toBe('http://localhost:8787/widget/')
  expect(readFrameUrl(url)).toEqual(params)
  // The browser's word on who embeds the frame wins over the URL's.
  expect(readFrameUrl(url, ['https://app.example']).hostOrigin).toBe('https://app.example')
})

test('frame params: defaults, and nothing outside the known values gets through', () => {
  expect(readFrameUrl(new URL('http://localhost:8787/widget/?appId=demo'))).toEqual({
    appId: 'demo',
    env: 'sandbox',
    hostOrigin: null,
    theme: 'dark',
    locale: 'en',
    chains: [],
    mode: 'frame',
    secureWindow: false,
  })
  const url = new URL('http://x/widget/?appId=a&env=production&theme=light&locale=id&chains=31338,abc,-1,31337&origin=http://evil')
  expect(readFrameUrl(url, ['http://127.0.0.1:5173'])).toEqual({
    appId: 'a',
    env: 'production',
    hostOrigin: 'http://127.0.0.1:5173',
    theme: 'light',
    locale: 'id',
    chains: [31338, 31337],
    mode: 'frame',
    secureWindow: false,
  })
  expect(readFrameUrl(new URL('http://x/?mode=window&window=frame')).mode).toBe('frame')
  expect(readFrameUrl(new URL('http://x/?window=frame')).secureWindow).toBe(false)
  expect(readFrameUrl(new URL('http://x/?env=staging&theme=neon&locale=fr')).env).toBe('sandbox')
  expect(readFrameUrl(new URL('http://x/?theme=neon')).theme).toBe('dark')
  expect(readFrameUrl(new URL('http://x/?locale=fr')).locale).toBe('en')
  expect(readFrameUrl(new URL('http://x/?origin=http://a.example')).hostOrigin).toBe('http://a.example')
})

test('the secure window URL: the frame params, popup mode, and the channel only in the fragment', () => {
  const frame: FrameParams = {
    appId: 'demo',
    env: 'sandbox',
    hostOrigin: 'http://127.0.0.1:5173',
    theme: 'light',
    locale: 'id',
    chains: [31337],
    mode: 'frame',
    secureWindow: false,
  }
  const url = new URL(secureWindowUrl({ ...frame, providerOrigin: 'http://localhost:8787' }, 'c'.repeat(43)))
  expect(url.origin + url.pathname).toBe('http://localhost:8787/widget/')
  expect(url.hash).toBe(`#channel=${'c'.repeat(43)}`)
  expect(url.search).not.toContain('channel')
  expect(readFrameUrl(url)).toEqual({ ...frame, mode: 'popup', secureWindow: true })
})
