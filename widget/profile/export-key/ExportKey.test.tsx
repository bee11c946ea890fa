// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { resolveContext, type Context } from '../../../sdk/config.ts'
import { gesture } from '../../confirm/confirm-modal.fixture.tsx'
import { useWidget, Widget } from '../../context.ts'
import { alice } from '../../wallet.fixture.ts'
import { renderProfileWidget } from '../profile.fixture.tsx'
import { ExportKey, revealSeconds } from './ExportKey.tsx'
import { exportKeyText } from './export-key-text.ts'

// The export page on a scripted wallet service: the code, the proof spent at once, the key behind
// a gated Reveal, and where the key never goes.

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const text = exportKeyText.en
const privateKey = `0x${'7e'.repeat(32)}`
const proof = `sup_${'P'.repeat(43)}`
const envelope = (status: number, message: string, data: unknown) =>
  new Response(JSON.stringify({ status, message, data }), { status, headers: { 'content-type': 'application/json' } })
const answers: Record<string, () => Response> = {
  '/auth/step-up/start': () =>
    envelope(200, 'OK', { challengeId: 'suc_1', factor: 'email', action: 'export-key', expiresAt: '2030-01-01T00:00:00Z', sentTo: 'a•••@example.com' }),
  '/auth/step-up/verify': () => envelope(200, 'OK', { stepUpProof: proof, action: 'export-key', expiresAt: '2030-01-01T00:00:00Z' }),
  '/account/export-key': () => envelope(200, 'OK', { privateKey }),
}

/** The page as the secure window shows it (only the gate's timing rules apply), or as the frame does. */
function In({ presentation, children }: { presentation: 'frame' | 'window'; children: ReactNode }) {
  const widget = useWidget()
  return <Widget.Provider value={{ ...widget, presentation }}>{children}</Widget.Provider>
}

async function renderPage(presentation: 'frame' | 'window' = 'window', override: Partial<typeof answers> = {}) {
  const sent: { path: string; authorization: string | null; body: unknown }[] = []
  const client: { context?: Context } = {}
  const widget = await renderProfileWidget(
    <In presentation={presentation}>
      <ExportKey />
    </In>,
    { client },
  )
  client.context = resolveContext({
    appId: 'demo',
    baseUrls: { wallet: 'http://wallet.test/api/v2' },
    tokens: widget.owner.tokens,
    fetch: async (url, init) => {
      const path = String(url).replace('http://wallet.test/api/v2', '')
      sent.push({ path, authorization: new Headers(init?.headers).get('authorization'), body: JSON.parse(String(init?.body ?? '{}')) })
      return { ...answers, ...override }[path]!()
    },
  })
  return { ...widget, sent }
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
const click = (name: string) => act(async () => void fireEvent.click(button(name)))
const typeCode = (code: string) => act(async () => void fireEvent.change(screen.getByLabelText(text.codeLabel), { target: { value: code } }))
const shownKey = () => document.body.textContent?.includes(privateKey.slice(2)) ?? false

describe('the export-key page', () => {
  test('risk, code, proof spent at once, key behind Reveal: never in the store, never told to the host, forgotten after a minute', async () => {
    const page = await renderPage()
    expect(screen.getByTestId('export-key-risks').textContent).toContain('take all your funds')
    await click(text.sendCode)
    expect(page.sent[0]).toEqual({ path: '/auth/step-up/start', authorization: `Bearer ${alice.token}`, body: { action: 'export-key' } })
    expect(screen.getByText(text.sentTo('a•••@example.com'))).toBeTruthy()
    await typeCode('12a3456')
    expect(page.sent.slice(1)).toEqual([
      { path: '/auth/step-up/verify', authorization: `Bearer ${alice.token}`, body: { challengeId: 'suc_1', code: '123456' } },
      { path: '/account/export-key', authorization: `Bearer ${alice.token}`, body: { stepUpProof: proof } },
    ])
    // Hidden: only a blurred stand-in is on the page, and Reveal waits for the gate.
    expect(screen.getByTestId('export-key-value').textContent).not.toContain(privateKey.slice(2))
    expect(button(text.reveal).disabled).toBe(true)
    await act(() => vi.advanceTimersByTimeAsync(600))
    await gesture()
    expect(button(text.reveal).disabled).toBe(false)
    await click(text.reveal)
    expect(screen.getByTestId('export-key-value').textContent).toBe(privateKey)
    // Nowhere else: not in the frame's state, not in an event for the host, not in the session store.
    expect(JSON.stringify(page.wallet.ui.get())).not.toContain(privateKey.slice(2))
    expect(JSON.stringify(page.wallet.ui.get())).not.toContain(proof)
    expect(page.events).toEqual([])
    expect(JSON.stringify(page.stored())).not.toContain(privateKey.slice(2))
    await click(text.hide)
    expect(shownKey()).toBe(false)
    await click(text.reveal)
    expect(shownKey()).toBe(true)
    await act(() => vi.advanceTimersByTimeAsync(revealSeconds * 1000 + 1000))
    expect(shownKey()).toBe(false)
    expect(screen.getByText(text.hiddenAgain)).toBeTruthy()
    expect(screen.queryByRole('button', { name: text.reveal })).toBeNull()
  })

  test('in a frame that cannot prove it is seen, Reveal and Copy take no click', async () => {
    const writes: string[] = []
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void writes.push(t) }, configurable: true })
    await renderPage('frame')
    await click(text.sendCode)
    await typeCode('123456')
    await act(() => vi.advanceTimersByTimeAsync(2_000))
    await gesture()
    expect(screen.getByText(text.notProvable)).toBeTruthy()
    expect(button(text.reveal).disabled).toBe(true)
    expect(button(text.copy).disabled).toBe(true)
    // A click that reaches them anyway (re-enabled by a script, a stale render) is not taken.
    button(text.reveal).disabled = false
    button(text.copy).disabled = false
    await click(text.reveal)
    await click(text.copy)
    expect(shownKey()).toBe(false)
    expect(writes).toEqual([])
  })

  test('Copy, once the gate allows it, puts the key on the clipboard without showing it', async () => {
    const writes: string[] = []
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void writes.push(t) }, configurable: true })
    await renderPage()
    await click(text.sendCode)
    await typeCode('123456')
    await act(() => vi.advanceTimersByTimeAsync(600))
    await gesture()
    await click(text.copy)
    expect(writes).toEqual([privateKey])
    expect(screen.getByText(text.copied)).toBeTruthy()
    expect(shownKey()).toBe(false)
  })

  test('a new code: the page answers the newest challenge', async () => {
    let n = 0
    const page = await renderPage('window', {
      '/auth/step-up/start': () =>
        envelope(200, 'OK', {
          challengeId: `suc_${++n}`,
          factor: 'email',
          action: 'export-key',
          expiresAt: '2030-01-01T00:00:00Z',
          sentTo: 'a•••@example.com',
        }),
    })
    await click(text.sendCode)
    await click(text.resend)
    await typeCode('654321')
    expect(page.sent.map((s) => s.path)).toEqual(['/auth/step-up/start', '/auth/step-up/start', '/auth/step-up/verify', '/account/export-key'])
    expect(page.sent[2]!.body).toEqual({ challengeId: 'suc_2', code: '654321' })
  })

  test('an account without an e-mail address, a wrong code, a session gone: each reads plainly and shows no key', async () => {
    const noEmail = await renderPage('window', { '/auth/step-up/start': () => envelope(409, 'No second factor', { factors: [] }) })
    await click(text.sendCode)
    expect(screen.getByRole('alert').textContent).toBe(text.noEmail)
    expect(noEmail.sent).toHaveLength(1)
    cleanup()

    const wrong = await renderPage('window', { '/auth/step-up/verify': () => envelope(400, 'Invalid OTP', null) })
    await click(text.sendCode)
    await typeCode('000000')
    expect(screen.getByRole('alert').textContent).toBe('Invalid OTP')
    expect(wrong.sent.map((s) => s.path)).toEqual(['/auth/step-up/start', '/auth/step-up/verify'])
    expect((screen.getByLabelText(text.codeLabel) as HTMLInputElement).value).toBe('')
    cleanup()

    await renderPage('window', { '/account/export-key': () => envelope(401, 'Session revoked', null) })
    await click(text.sendCode)
    await typeCode('123456')
    expect(screen.getByRole('alert').textContent).toBe(text.signedOut)
    expect(shownKey()).toBe(false)
  })
})
