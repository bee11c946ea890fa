// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import type { Context } from '../../../sdk/config.ts'
import type { SecureWindowHandlers } from '../../secure/secure-window.ts'
import { renderProfileWidget, scriptedWalletService } from '../profile.fixture.tsx'
import { exportKeyText } from './export-key-text.ts'

// Red team, the frame's side of the export: the proof is handed over once, only to the window this
// page opened and only after it said hello (a blocked window never holds it), a window that closed
// before taking it leaves it here for a new window, and leaving the page closes the window (the key
// shown there goes with it). And when the page closes mid-export (the hello came, the handoff's
// session still being read or refreshed as the user leaves the page or closes the window), nothing is
// written: nobody would read the channel any more, and the wallet token and the proof would sit unread
// in the mailbox for the channel's whole life.

const opened: { handlers: SecureWindowHandlers; posted: Record<string, unknown>[]; closed: boolean }[] = []
vi.mock('../../secure/secure-window.ts', () => ({
  openSecureWindow: (_params: unknown, handlers: SecureWindowHandlers) => {
    const win = { handlers, posted: [] as Record<string, unknown>[], closed: false }
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
const envelope = (data: unknown) =>
  new Response(JSON.stringify({ status: 200, message: 'OK', data }), { status: 200, headers: { 'content-type': 'application/json' } })
const answers: Record<string, () => Response> = {
  '/auth/step-up/start': () =>
    envelope({ challengeId: 'suc_1', factor: 'email', action: 'export-key', expiresAt: '2030-01-01T00:00:00Z', sentTo: 'a•••@example.com' }),
  '/auth/step-up/verify': () => envelope({ stepUpProof: `sup_${'P'.repeat(43)}`, action: 'export-key', expiresAt: '2030-01-01T00:00:00Z' }),
}

async function windowOffered() {
  const client: { context?: Context } = {}
  const widget = await renderProfileWidget(<ExportKey />, { client })
  client.context = scriptedWalletService(widget.owner.tokens, ({ path }) => answers[path]!())
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: text.sendCode })))
  await act(async () => void fireEvent.change(screen.getByLabelText(text.codeLabel), { target: { value: '123456' } }))
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: text.openWindow })))
  return widget
}
const handoffs = (i: number) => opened[i]!.posted.filter((m) => m.type === 'export-key')
const hello = (i: number) => act(async () => void opened[i]!.handlers.message({ type: 'hello' }))

describe('red team: the frame hands the proof over once, to its own window', () => {
  test('a second hello (a reloaded window, a forged one) gets no second handoff', async () => {
    await windowOffered()
    await hello(0)
    await hello(0)
    expect(handoffs(0)).toHaveLength(1)
  })

  test('a window that closed before its hello: nothing was handed over, and a new window gets the proof', async () => {
    await windowOffered()
    await act(async () => opened[0]!.handlers.closed())
    expect(handoffs(0)).toEqual([])
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: text.openWindow })))
    await hello(1)
    expect(handoffs(1)).toHaveLength(1)
  })

  test('a hello from a window this page already replaced gets nothing', async () => {
    await windowOffered()
    await act(async () => opened[0]!.handlers.blocked())
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: text.tryAgain })))
    await hello(0)
    expect(handoffs(0)).toEqual([])
    expect(opened[0]!.closed).toBe(false)
  })

  test('the session ended before the hello: nothing is handed over and the window is closed', async () => {
    const widget = await windowOffered()
    await act(async () => widget.owner.tokens.clear())
    await hello(0)
    expect(handoffs(0)).toEqual([])
    expect(opened[0]!.closed).toBe(true)
    expect(screen.getByText(text.windowClosed)).toBeTruthy()
  })

  test('leaving the page closes the window, and says so on the channel (a handle a COOP page cut cannot)', async () => {
    await windowOffered()
    await hello(0)
    cleanup()
    expect(opened[0]!.closed).toBe(true)
    expect(opened[0]!.posted.at(-1)).toEqual({ type: 'done' })
  })
})

describe('red team: nothing is handed over to a window that is already gone', () => {
  test('the page left between the hello and the handoff: no handoff written, only done', async () => {
    await windowOffered()
    await act(async () => {
      opened[0]!.handlers.message({ type: 'hello' })
      cleanup()
    })
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(opened[0]!.closed).toBe(true)
    expect(handoffs(0)).toEqual([])
    expect(opened[0]!.posted.at(-1)).toEqual({ type: 'done' })
  })

  test('the window closed between its hello and the handoff: no handoff written', async () => {
    await windowOffered()
    await act(async () => {
      opened[0]!.handlers.message({ type: 'hello' })
      opened[0]!.handlers.closed()
    })
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(handoffs(0)).toEqual([])
    expect(screen.getByText(text.windowClosed)).toBeTruthy()
  })
})
