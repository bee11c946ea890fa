// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Context } from '../../../sdk/config.ts'
import type { PopupMessage } from '../../../sdk/popup-channel.ts'
import type { SecureWindowHandlers } from '../../secure/secure-window.ts'
import { alice } from '../../wallet.fixture.ts'
import { renderProfileWidget, scriptedWalletService } from '../profile.fixture.tsx'
import { exportKeyText } from './export-key-text.ts'

// The frame's export page on a scripted wallet service, with the secure window played here: the
// code, the proof kept until the window says hello, then handed over once with the session's token;
// the key is never asked for from the frame, and never in its page, store or events.

/** Each window the page opened: what it posted to it, and whether it was closed. */
const opened: { params: unknown; handlers: SecureWindowHandlers; posted: Record<string, unknown>[]; closed: boolean }[] = []
vi.mock('../../secure/secure-window.ts', () => ({
  openSecureWindow: (params: unknown, handlers: SecureWindowHandlers) => {
    const win = { params, handlers, posted: [] as Record<string, unknown>[], closed: false }
    opened.push(win)
    return {
      channel: { post: async (m: Record<string, unknown>) => void win.posted.push(m), listen: () => () => {} },
      close: () => {
        win.closed = true
      },
    }
  },
}))
const { ExportKey } = await import('./ExportKey.tsx')

afterEach(() => {
  cleanup()
  opened.length = 0
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

async function renderPage(override: Partial<typeof answers> = {}) {
  const sent: { path: string; authorization: string | null; body: unknown }[] = []
  const client: { context?: Context } = {}
  const widget = await renderProfileWidget(<ExportKey />, { client })
  client.context = scriptedWalletService(widget.owner.tokens, ({ path, authorization, body }) => {
    sent.push({ path, authorization, body })
    return { ...answers, ...override }[path]!()
  })
  return { ...widget, sent }
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
const click = (name: string) => act(async () => void fireEvent.click(button(name)))
const typeCode = (code: string) => act(async () => void fireEvent.change(screen.getByLabelText(text.codeLabel), { target: { value: code } }))
const say = (i: number, message: PopupMessage) => act(async () => void opened[i]!.handlers.message(message))
const handoff = { type: 'export-key', walletToken: alice.token, stepUpProof: proof }

/** Signed in, the risk read, the code typed: the page offers the secure window. */
async function confirmed(override: Partial<typeof answers> = {}) {
  const page = await renderPage(override)
  await click(text.sendCode)
  await typeCode('123456')
  return page
}

describe('the export-key page in the frame', () => {
  test('risk, code, then the secure window: the proof goes to it once it says hello, with the session; the key never comes here', async () => {
    const page = await renderPage()
    expect(screen.getByTestId('export-key-risks').textContent).toContain('take all your funds')
    await click(text.sendCode)
    expect(page.sent[0]).toEqual({
      path: '/auth/step-up/start',
      authorization: `Bearer ${alice.token}`,
      body: { action: 'export-key', factors: ['passkey', 'email'] },
    })
    expect(screen.getByText(text.sentTo('a•••@example.com'))).toBeTruthy()
    await typeCode('12a3456')
    expect(page.sent.slice(1)).toEqual([
      { path: '/auth/step-up/verify', authorization: `Bearer ${alice.token}`, body: { challengeId: 'suc_1', code: '123456' } },
    ])
    expect(screen.getByText(text.windowWhy)).toBeTruthy()
    expect(opened).toHaveLength(0)

    await click(text.openWindow)
    expect(opened).toHaveLength(1)
    expect(opened[0]!.params).toMatchObject({ appId: 'demo', env: 'sandbox', hostOrigin: 'http://127.0.0.1:5173', locale: 'en', secureWindow: false })
    expect(opened[0]!.posted).toEqual([{ type: 'open', purpose: 'export-key', hostOrigin: 'http://127.0.0.1:5173' }])
    await say(0, { type: 'hello' })
    expect(opened[0]!.posted.slice(1)).toEqual([handoff])
    expect(screen.getByTestId('secure-window-open').textContent).toBe(text.windowOpen)

    // The frame never asked for the key, and the proof is in no state the host could reach.
    expect(page.sent.map((s) => s.path)).not.toContain('/account/export-key')
    expect(document.body.textContent).not.toContain(privateKey.slice(2))
    expect(JSON.stringify(page.wallet.ui.get())).not.toContain(proof)
    expect(page.events).toEqual([])
    expect(JSON.stringify(page.stored())).not.toContain(proof)

    // The window closed: the export is over, and a new one starts from a new code.
    await act(async () => opened[0]!.handlers.closed())
    expect(screen.getByText(text.windowClosed)).toBeTruthy()
    await click(text.again)
    expect(button(text.sendCode)).toBeTruthy()
  })

  test('a blocked window: said so, and a click opens it again; the proof went to neither window before its hello', async () => {
    await confirmed()
    await click(text.openWindow)
    await act(async () => opened[0]!.handlers.blocked())
    expect(screen.getByTestId('secure-window-blocked').textContent).toBe(text.windowBlocked)
    expect(opened[0]!.posted.map((m) => m.type)).toEqual(['open'])
    await click(text.tryAgain)
    expect(opened).toHaveLength(2)
    expect(opened[1]!.posted.map((m) => m.type)).toEqual(['open'])
    await say(1, { type: 'hello' })
    expect(opened[1]!.posted.slice(1)).toEqual([handoff])
  })

  test('an account without an e-mail address, a wrong code, a session gone: each reads plainly and opens nothing', async () => {
    const noEmail = await renderPage({ '/auth/step-up/start': () => envelope(409, 'No second factor', { factors: [] }) })
    await click(text.sendCode)
    expect(screen.getByRole('alert').textContent).toBe(text.noEmail)
    expect(noEmail.sent).toHaveLength(1)
    cleanup()

    const wrong = await confirmed({ '/auth/step-up/verify': () => envelope(400, 'Invalid OTP', null) })
    expect(screen.getByRole('alert').textContent).toBe('Invalid OTP')
    expect(wrong.sent.map((s) => s.path)).toEqual(['/auth/step-up/start', '/auth/step-up/verify'])
    expect((screen.getByLabelText(text.codeLabel) as HTMLInputElement).value).toBe('')
    cleanup()

    await confirmed({ '/auth/step-up/verify': () => envelope(401, 'Session revoked', null) })
    expect(screen.getByRole('alert').textContent).toBe(text.signedOut)
    expect(opened).toHaveLength(0)
  })

  test('a new code: the page answers the newest challenge', async () => {
    let n = 0
    const page = await renderPage({
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
    expect(page.sent.map((s) => s.path)).toEqual(['/auth/step-up/start', '/auth/step-up/start', '/auth/step-up/verify'])
    expect(page.sent[2]!.body).toEqual({ challengeId: 'suc_2', code: '654321' })
  })
})
