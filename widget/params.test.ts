import { expect, test } from 'vitest'
import { readParams } from './params.ts'

test('frame params: defaults, and nothing outside the known values gets through', () => {
  expect(readParams(new URL('http://localhost:8787/widget/?appId=demo'))).toEqual({
    appId: 'demo',
    env: 'sandbox',
    hostOrigin: null,
    theme: 'dark',
    locale: 'en',
    chains: [],
  })
  const url = new URL('http://x/widget/?appId=a&env=production&theme=light&locale=id&chains=31338,abc,-1,31337&origin=http://evil')
  expect(readParams(url, ['http://127.0.0.1:5173'])).toEqual({
    appId: 'a',
    env: 'production',
    hostOrigin: 'http://127.0.0.1:5173',
    theme: 'light',
    locale: 'id',
    chains: [31338, 31337],
  })
  expect(readParams(new URL('http://x/?env=staging&theme=neon&locale=fr')).env).toBe('sandbox')
  expect(readParams(new URL('http://x/?theme=neon')).theme).toBe('dark')
  expect(readParams(new URL('http://x/?locale=fr')).locale).toBe('en')
  expect(readParams(new URL('http://x/?origin=http://a.example')).hostOrigin).toBe('http://a.example')
})
