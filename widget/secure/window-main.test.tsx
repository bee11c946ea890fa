// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { FrameParams } from '../../bridge/frame-url.ts'
import { createConfirmations } from '../confirmation.ts'
import { gesture } from '../confirm/confirm-modal.fixture.tsx'
import type { WidgetContext } from '../context.ts'
import { alice, testWallet } from '../wallet.fixture.ts'

// The secure window booted as the browser runs it (window-main.tsx), its confirmation screen the real
// one. Only the channel's server is played: a mailbox per channel name with one list per side, each
// side reading only what the other wrote, as sandbox/services/popup/channel.ts keeps it. The window's
// services and wallet core are the test wallet's.

type Mailbox = { frame: unknown[]; popup: unknown[]; wake: Set<() => void> }
const mailboxes = new Map<string, Mailbox>()
const mailbox = (id: string) => {
  const box = mailboxes.get(id) ?? { frame: [], popup: [], wake: new Set() }
  mailboxes.set(id, box)
  return box
}
/** Writes as `side` of channel `id`, the way a page holding that name would. */
const write = (id: string, side: 'frame' | 'popup', message: unknown) => {
  const box = mailbox(id)
  box[side].push(JSON.parse(JSON.stringify(message)))
  for (const wake of box.wake) wake()
}
const answer = (status: number, body: unknown = null) => ({ ok: status < 300, status, json: async () => body }) as Response
/** The server refuses every write with this status (a network over its channel budget: 429), or takes them (null). */
let refusing: number | null = null
async function server(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input), location.href)
  const [, , id, side] = url.pathname.split('/') as [string, string, string, 'frame' | 'popup']
  if (init.method === 'POST') {
    if (refusing !== null) return answer(refusing, { error: 'Too many channels opened: try again later' })
    write(id, side, JSON.parse(String(init.body)))
    return answer(204)
  }
  const box = mailbox(id)
  const written = side === 'popup' ? box.frame : box.popup
  const after = Number(url.searchParams.get('after'))
  if (written.length <= after)
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        box.wake.delete(wake)
        resolve()
      }
      box.wake.add(wake)
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
    })
  return answer(200, { messages: written.slice(after), next: written.length, peer: 'here' })
}

const hostOrigin = 'http://127.0.0.1:5173'
let services: Record<string, unknown>
let ctx: Record<string, unknown>
vi.mock('../core.ts', () => ({ openServices: async () => services, start: async () => ctx }))
vi.mock('../ui.tsx', async () => {
  const { render } = await import('@testing-library/react')
  const { Widget } = await import('../context.ts')
  const { ConfirmModal } = await import('../confirm/ConfirmModal.tsx')
  return {
    render: (value: WidgetContext) =>
      void render(
        <Widget.Provider value={value}>
          <ConfirmModal />
        </Widget.Provider>,
      ),
  }
})
const { bootSecureWindow } = await import('./window-main.tsx')

const params = { appId: 'demo', env: 'sandbox', hostOrigin, theme: 'dark', locale: 'en', chains: [], mode: 'popup', secureWindow: true } as FrameParams
const channel = 'c'.repeat(43)
/** An earlier window's channel: its name is not this window's. */
const stale = 's'.repeat(43)
const transaction = {
  id: 7,
  kind: 'transaction',
  payload: { from: alice.address, to: '0x000000000000000000000000000000000000dEaD', value: '1', chainId: 31337 },
  status: 'idle',
  error: null,
}

let closed: ReturnType<typeof vi.spyOn>
beforeEach(async () => {
  vi.useFakeTimers()
  mailboxes.clear()
  refusing = null
  vi.stubGlobal('fetch', server)
  closed = vi.spyOn(window, 'close').mockImplementation(() => {})
  document.body.innerHTML = '<div id="root"></div>'
  Object.defineProperty(document, 'referrer', { configurable: true, get: () => location.origin })
  history.replaceState(null, '', `/secure-window#channel=${channel}`)
  const t = testWallet({ session: alice })
  await t.wallet.restore()
  services = { config: { allowedOrigins: [hostOrigin], chains: [] }, client: {}, owner: { persistent: true } }
  ctx = { wallet: t.wallet, confirmations: createConfirmations(t.wallet) }
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
  closed.mockRestore()
})

/** Lets the channel's reads and the renders they cause run. */
const settle = () => act(() => vi.advanceTimersByTimeAsync(20))
/** What the window wrote back on its side: its hello, and any decision. */
const decisions = () => mailbox(channel).popup.filter((m) => (m as { type: string }).type === 'decision')
/** The buttons the user can press (the modal's × is there, disabled: a confirmation is not closed that way). */
const buttons = () =>
  (screen.queryAllByRole('button') as HTMLButtonElement[]).filter((b) => !b.disabled).map((b) => b.getAttribute('aria-label') ?? b.textContent)
/** Every button on screen, pressable or not, by name. */
const present = () => screen.queryAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent)
const notice = () => screen.queryByTestId('confirm-step-up-on-page')

/** The window opened by the frame for a transaction: it shows the request with its own Confirm, enabled once the user moved. */
async function openForTransaction() {
  await bootSecureWindow(params)
  write(channel, 'frame', { type: 'open', purpose: 'confirm', hostOrigin })
  write(channel, 'frame', { type: 'state', confirmation: transaction, queued: 0 })
  await settle()
  await act(() => vi.advanceTimersByTimeAsync(600))
  await gesture()
  expect(buttons()).toEqual(['Reject', 'Confirm'])
  expect(notice()).toBeNull()
}

describe("the secure window's step-up notice comes from the frame that opened it, and from nothing else", () => {
  test('a copy with askingStepUp from another window, another origin, the host page or a stale channel changes nothing', async () => {
    await openForTransaction()
    const forged = { type: 'state', confirmation: { ...transaction, status: 'loading', askingStepUp: true }, queued: 0 }
    // postMessage from the host page, another window or another origin: the window hears the frame only on its channel.
    window.postMessage(forged, '*')
    for (const origin of [hostOrigin, 'https://evil.example', location.origin])
      window.dispatchEvent(new MessageEvent('message', { data: forged, origin, source: window }))
    // A channel the frame used for an earlier window.
    write(stale, 'frame', forged)
    // This channel's window side (the window never reads its own side).
    write(channel, 'popup', forged)
    // A copy that is not the frame's message as the client reads it (an id that is not a number).
    write(channel, 'frame', { ...forged, confirmation: { ...forged.confirmation, id: '7' } })
    await settle()
    expect(notice()).toBeNull()
    expect(buttons()).toEqual(['Reject', 'Confirm'])

    // The harness sees a copy when the frame sends one: the same copy on the frame's side shows the notice.
    write(channel, 'frame', forged)
    await settle()
    expect(notice()).not.toBeNull()
  })

  test('a genuine askingStepUp leaves nothing to press and no decision sent; once the step-up is answered the window closes', async () => {
    await openForTransaction()
    // The user confirms in the window (this is what the harness sees as a decision).
    await act(async () => screen.getByRole('button', { name: 'Confirm' }).click())
    await settle()
    expect(decisions()).toEqual([{ type: 'decision', id: 7, approve: true }])
    write(channel, 'frame', { type: 'state', confirmation: { ...transaction, status: 'loading', askingStepUp: true }, queued: 1 })
    await settle()
    expect(notice()!.textContent).toContain('answer it in the wallet on the page')
    // No Confirm, no Reject; Reject all (one more waits) is there but disabled while the request is carried out.
    expect(present()).toEqual(['Close', 'Reject all'])
    expect(buttons()).toEqual([])
    expect((screen.getByRole('button', { name: 'Reject all' }) as HTMLButtonElement).disabled).toBe(true)
    await act(() => vi.advanceTimersByTimeAsync(600))
    await gesture()
    for (const key of ['Enter', ' ']) window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }))
    for (const button of screen.queryAllByRole('button')) await act(async () => button.click())
    await settle()
    expect(decisions()).toHaveLength(1)
    expect(closed).not.toHaveBeenCalled()

    // The code is typed on the page: the frame sends the transaction and says done.
    write(channel, 'frame', { type: 'state', confirmation: { ...transaction, status: 'success' }, queued: 1 })
    write(channel, 'frame', { type: 'done' })
    await settle()
    expect(closed).toHaveBeenCalled()
    expect(decisions()).toHaveLength(1)
  })

  test('a step-up refused on the page ends the request: the frame says done and the window closes, having sent nothing', async () => {
    await bootSecureWindow(params)
    write(channel, 'frame', { type: 'open', purpose: 'confirm', hostOrigin })
    write(channel, 'frame', { type: 'state', confirmation: { ...transaction, status: 'loading', askingStepUp: true }, queued: 0 })
    await settle()
    expect(notice()).not.toBeNull()
    expect(present()).toEqual(['Close'])
    expect(buttons()).toEqual([])
    write(channel, 'frame', { type: 'done' })
    await settle()
    expect(closed).toHaveBeenCalled()
    expect(decisions()).toEqual([])
  })
})

test('a window whose channel the service refuses (429) says so and offers nothing to press, instead of staying blank', async () => {
  refusing = 429
  await bootSecureWindow(params)
  await settle()
  expect(screen.getByTestId('secure-window-notice').textContent).toBe('This window could not start. Close it and try again in the wallet.')
  expect(present()).toEqual([])
})
