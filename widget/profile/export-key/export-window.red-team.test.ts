// @vitest-environment happy-dom
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { FrameParams } from '../../../bridge/frame-url.ts'
import { openSecureWindow, type SecureWindow } from '../../secure/secure-window.ts'

// Red team, the host page hunting the channel's name (the only key to the mailbox where the frame
// hands over the session and the proof). Everything the export window is opened with is looked at
// from the outside: what the server sees of its address, what a page could target, what the frame
// says to anyone but its own server.

const params: FrameParams = {
  appId: 'demo',
  env: 'sandbox',
  hostOrigin: 'https://host.example',
  theme: 'dark',
  locale: 'en',
  chains: [],
  mode: 'frame',
  secureWindow: false,
}

const opened: SecureWindow[] = []
afterEach(() => {
  for (const win of opened.splice(0)) win.close()
  vi.restoreAllMocks()
})

function openOne() {
  const calls: { url: string; target: string; features: string }[] = []
  const requests: string[] = []
  vi.spyOn(window, 'open').mockImplementation((url, target, features) => {
    calls.push({ url: String(url), target: String(target), features: String(features) })
    return { closed: false, close() {} } as Window
  })
  vi.spyOn(globalThis, 'fetch').mockImplementation((url, init) => {
    requests.push(String(url))
    if (init?.method === 'POST') return Promise.resolve(new Response(null, { status: 204 }))
    // A read waits on the server until the reader lets go.
    return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))))
  })
  const posted = vi.spyOn(window, 'postMessage')
  const parentPosted = window.parent === window ? posted : vi.spyOn(window.parent, 'postMessage')
  const win = openSecureWindow(params, { message() {}, closed() {}, blocked() {} })
  opened.push(win)
  return { call: calls[0]!, requests, posted, parentPosted }
}

describe("red team: the export window's channel name stays with the frame and the window", () => {
  test('the name is in the fragment only: no server, proxy log or Referer of the window sees it', () => {
    const { call } = openOne()
    const url = new URL(call.url)
    const name = new URLSearchParams(url.hash.slice(1)).get('channel')!
    expect(name).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(`${url.origin}${url.pathname}${url.search}`).not.toContain(name)
    // The host's origin is in the query (the window checks it again); the name is not beside it.
    expect(url.searchParams.get('window')).toBe('secure')
  })

  test('a window no page can target by name, on the provider origin, with a name made anew for each', () => {
    const first = openOne()
    const second = openOne()
    for (const { call } of [first, second]) {
      // `_blank`: the window has no name a host page could pass to window.open() to get a handle on it.
      expect(call.target).toBe('_blank')
      expect(new URL(call.url).origin).toBe(location.origin)
    }
    expect(new URL(first.call.url).hash).not.toBe(new URL(second.call.url).hash)
  })

  test('the frame tells the name to nobody but its own server: nothing posted to any window', async () => {
    const { call, requests, posted, parentPosted } = openOne()
    const name = new URLSearchParams(new URL(call.url).hash.slice(1)).get('channel')!
    await opened[0]!.channel.post({ type: 'open', purpose: 'export-key', hostOrigin: 'https://host.example' })
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(posted).not.toHaveBeenCalled()
    expect(parentPosted).not.toHaveBeenCalled()
    const carrying = requests.filter((r) => r.includes(name))
    expect(carrying.length).toBeGreaterThan(0)
    for (const r of carrying) expect(new URL(r).origin).toBe(location.origin)
  })
})
