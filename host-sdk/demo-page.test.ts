// @vitest-environment happy-dom
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, test, vi } from 'vitest'

// The demo page (examples/demo) runs in the production environment: the one line it pastes (the kit.js script tag)
// says data-env="production", and the kit that tag creates opens its wallet frame with env=production.

const html = readFileSync(join(import.meta.dirname, '../examples/demo/index.html'), 'utf8')

afterEach(() => {
  window.WalletKit?.kit?.destroy()
  document.body.replaceChildren()
  vi.resetModules()
})

test('the demo page loads kit.js with the demo app and data-env="production"', () => {
  const page = new DOMParser().parseFromString(html, 'text/html')
  const tags = [...page.querySelectorAll('script[src$="/kit.js"]')] as HTMLScriptElement[]
  expect(tags).toHaveLength(1)
  expect({ ...tags[0]!.dataset }).toEqual({ appId: 'demo', env: 'production' })
})

test('the kit created by that tag opens its wallet frame in production', async () => {
  const page = new DOMParser().parseFromString(html, 'text/html')
  const tag = page.querySelector('script[src$="/kit.js"]') as HTMLScriptElement
  const script = document.createElement('script')
  for (const { name, value } of tag.attributes) script.setAttribute(name, value)
  vi.spyOn(document, 'currentScript', 'get').mockReturnValue(script)
  await import('./script.ts')
  expect(window.WalletKit?.kit).toBeDefined()
  const frame = document.querySelector('iframe[data-testid=wallet-kit-frame]') as HTMLIFrameElement
  const src = new URL(frame.src)
  expect(src.origin).toBe(new URL(tag.src).origin)
  expect(src.searchParams.get('appId')).toBe('demo')
  expect(src.searchParams.get('env')).toBe('production')
})
