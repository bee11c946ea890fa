// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { resolveContext } from '../../../sdk/config.ts'
import { gesture } from '../../confirm/confirm-modal.fixture.tsx'
import type { FrameMessage, PopupChannel, PopupChannelHandlers } from '../../../sdk/popup-channel.ts'
import { exportKeyText } from './export-key-text.ts'
import { revealSeconds } from './KeyView.tsx'
import { WindowExport } from './WindowExport.tsx'

// The secure window's export page on a scripted wallet service and a scripted channel: the frame's
// handoff fetches the key once, from this window; the key sits behind Reveal and Copy, and is let go
// after a minute, when the window is hidden and when its page goes away.

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true })
})

const text = exportKeyText.en
const privateKey = `0x${'7e'.repeat(32)}`
const walletToken = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln'
const proof = `sup_${'P'.repeat(43)}`
const handoff: FrameMessage = { type: 'export-key', walletToken, stepUpProof: proof }
const envelope = (status: number, message: string, data: unknown) =>
  new Response(JSON.stringify({ status, message, data }), { status, headers: { 'content-type': 'application/json' } })

/** A channel whose messages the test delivers, as the client would after its own checks. */
function scriptedChannel() {
  const readers: PopupChannelHandlers<'popup'>[] = []
  const channel = {
    id: 'c'.repeat(43),
    side: 'popup',
    post: async () => {},
    postOnUnload() {},
    listen(handlers: PopupChannelHandlers<'popup'>) {
      readers.push(handlers)
      return () => void readers.splice(readers.indexOf(handlers), 1)
    },
  } as PopupChannel<'popup'>
  const deliver = (message: FrameMessage) =>
    act(async () => {
      for (const reader of [...readers]) reader.message(message)
    })
  return { channel, deliver }
}

async function renderWindow(answer: () => Response = () => envelope(200, 'OK', { privateKey })) {
  const sent: { path: string; authorization: string | null; body: unknown }[] = []
  const context = resolveContext({
    appId: 'demo',
    baseUrls: { wallet: 'http://wallet.test/api/v2' },
    fetch: async (url, init) => {
      sent.push({
        path: String(url).replace('http://wallet.test/api/v2', ''),
        authorization: new Headers(init?.headers).get('authorization'),
        body: JSON.parse(String(init?.body ?? '{}')),
      })
      return answer()
    },
  })
  const { channel, deliver } = scriptedChannel()
  const close = vi.fn()
  render(<WindowExport channel={channel} context={context} locale="en" close={close} />)
  return { sent, deliver, close }
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
const click = (name: string) => act(async () => void fireEvent.click(button(name)))
/** The hand moves in the window and rests: Reveal and Copy take clicks from then on (KeyView.red-team.test.tsx). */
const arm = async () => {
  await gesture()
  await act(() => vi.advanceTimersByTimeAsync(600))
}
const shownKey = () => document.body.textContent?.includes(privateKey.slice(2)) ?? false

describe("the secure window's export page", () => {
  test("the frame's handoff: one call with its session and proof; the key behind Reveal; Copy; gone after a minute", async () => {
    const writes: string[] = []
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void writes.push(t) }, configurable: true })
    const page = await renderWindow()
    expect(screen.getByText(text.fetching)).toBeTruthy()
    expect(page.sent).toEqual([])
    await page.deliver(handoff)
    expect(page.sent).toEqual([{ path: '/account/export-key', authorization: `Bearer ${walletToken}`, body: { stepUpProof: proof } }])
    // Hidden until Reveal: only a blurred stand-in is on the page.
    expect(shownKey()).toBe(false)
    await arm()
    await click(text.copy)
    expect(writes).toEqual([privateKey])
    expect(screen.getByText(text.copied)).toBeTruthy()
    expect(shownKey()).toBe(false)
    await click(text.reveal)
    expect(screen.getByTestId('export-key-value').textContent).toBe(privateKey)
    await click(text.hide)
    expect(shownKey()).toBe(false)
    await click(text.reveal)
    await act(() => vi.advanceTimersByTimeAsync(revealSeconds * 1000 + 1000))
    expect(shownKey()).toBe(false)
    expect(screen.getByText(text.hiddenAgain)).toBeTruthy()
    expect(screen.queryByRole('button', { name: text.copy })).toBeNull()
    await click(text.close)
    expect(page.close).toHaveBeenCalledOnce()
  })

  test('red team: a second handoff (replayed, or written by another page holding the channel) fetches nothing more', async () => {
    const page = await renderWindow()
    await page.deliver(handoff)
    await page.deliver({ type: 'export-key', walletToken: 'eyJ.other.token', stepUpProof: `sup_${'Q'.repeat(43)}` })
    await page.deliver(handoff)
    expect(page.sent).toHaveLength(1)
    expect(page.sent[0]!.authorization).toBe(`Bearer ${walletToken}`)
  })

  test('red team: messages of other purposes start nothing', async () => {
    const page = await renderWindow()
    await page.deliver({ type: 'open', purpose: 'export-key', hostOrigin: 'http://127.0.0.1:5173' })
    await page.deliver({ type: 'state', confirmation: { id: 1, kind: 'sign' }, queued: 0 })
    await page.deliver({ type: 'done' })
    expect(page.sent).toEqual([])
    expect(screen.getByText(text.fetching)).toBeTruthy()
  })

  test('red team: a stale proof (spent or past its minutes) reads plainly and shows no key', async () => {
    const page = await renderWindow(() => envelope(403, 'Step-up required: the proof is spent', { stepUp: { action: 'export-key' } }))
    await page.deliver(handoff)
    expect(screen.getByRole('alert').textContent).toBe(text.spent)
    expect(shownKey()).toBe(false)
    expect(screen.queryByRole('button', { name: text.reveal })).toBeNull()
  })

  test('a session gone, or an answer that is not a key: an error, nothing shown', async () => {
    const signedOut = await renderWindow(() => envelope(401, 'Invalid token', null))
    await signedOut.deliver(handoff)
    expect(screen.getByRole('alert').textContent).toBe(text.signedOut)
    cleanup()
    const odd = await renderWindow(() => envelope(200, 'OK', { privateKey: '<img src=x>' }))
    await odd.deliver(handoff)
    expect(screen.getByRole('alert').textContent).toBe('The wallet service sent no key')
    expect(document.body.innerHTML).not.toContain('<img')
  })

  test('red team: the window hidden, or its page going away (closed, or navigated by its opener), forgets the key', async () => {
    for (const leave of [
      () => {
        Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
        document.dispatchEvent(new Event('visibilitychange'))
        Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true })
        document.dispatchEvent(new Event('visibilitychange'))
      },
      // A page kept for the back button comes back as it was left: without the key.
      () => {
        window.dispatchEvent(new Event('pagehide'))
        window.dispatchEvent(new Event('pageshow'))
      },
    ]) {
      const page = await renderWindow()
      await page.deliver(handoff)
      await arm()
      await click(text.reveal)
      expect(shownKey()).toBe(true)
      await act(async () => leave())
      expect(shownKey()).toBe(false)
      expect(screen.queryByRole('button', { name: text.copy })).toBeNull()
      expect(screen.getByText(text.hiddenAgain)).toBeTruthy()
      cleanup()
    }
  })
})
