// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { resolveContext, type Context } from '../../../sdk/config.ts'
import { gesture } from '../../confirm/confirm-modal.fixture.tsx'
import { useWidget, Widget } from '../../context.ts'
import { renderProfileWidget } from '../profile.fixture.tsx'
import { ExportKey, revealSeconds } from './ExportKey.tsx'
import { exportKeyText } from './export-key-text.ts'

// Red team, the export page: how long the key stays in the frame. It must be gone a minute after
// it arrived whether or not it was ever revealed (a key kept unrevealed stays one gated click from
// the clipboard for as long as the page is open), and gone once the tab is hidden (not only
// blurred: the user walked away from a page that still holds it).

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true })
})

const text = exportKeyText.en
const privateKey = `0x${'7e'.repeat(32)}`
const envelope = (data: unknown) =>
  new Response(JSON.stringify({ status: 200, message: 'OK', data }), { status: 200, headers: { 'content-type': 'application/json' } })
const answers: Record<string, () => Response> = {
  '/auth/step-up/start': () =>
    envelope({ challengeId: 'suc_1', factor: 'email', action: 'export-key', expiresAt: '2030-01-01T00:00:00Z', sentTo: 'a•••@example.com' }),
  '/auth/step-up/verify': () => envelope({ stepUpProof: `sup_${'P'.repeat(43)}`, action: 'export-key', expiresAt: '2030-01-01T00:00:00Z' }),
  '/account/export-key': () => envelope({ privateKey }),
}

/** The page as the secure window shows it: there the gate asks only its timing rules. */
function InWindow({ children }: { children: ReactNode }) {
  const widget = useWidget()
  return <Widget.Provider value={{ ...widget, presentation: 'window' }}>{children}</Widget.Provider>
}

async function keyOnPage() {
  const client: { context?: Context } = {}
  const widget = await renderProfileWidget(
    <InWindow>
      <ExportKey />
    </InWindow>,
    { client },
  )
  client.context = resolveContext({
    appId: 'demo',
    baseUrls: { wallet: 'http://wallet.test/api/v2' },
    tokens: widget.owner.tokens,
    fetch: async (url) => answers[String(url).replace('http://wallet.test/api/v2', '')]!(),
  })
  await act(async () => void fireEvent.click(screen.getByRole('button', { name: text.sendCode })))
  await act(async () => void fireEvent.change(screen.getByLabelText(text.codeLabel), { target: { value: '123456' } }))
  expect(screen.getByRole('button', { name: text.copy })).toBeTruthy()
}

function clipboard() {
  const writes: string[] = []
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void writes.push(t) }, configurable: true })
  return writes
}

describe('red team: the export page lets go of the key', () => {
  test('never revealed: a minute after it arrived the key is gone, Copy with it', async () => {
    const writes = clipboard()
    await keyOnPage()
    await act(() => vi.advanceTimersByTimeAsync(revealSeconds * 1000 + 1000))
    await gesture()
    expect(screen.queryByRole('button', { name: text.copy })).toBeNull()
    expect(screen.getByText(text.hiddenAgain)).toBeTruthy()
    expect(writes).toEqual([])
  })

  test('the tab hidden while the key is shown: the key is forgotten, not only blurred', async () => {
    await keyOnPage()
    await act(() => vi.advanceTimersByTimeAsync(600))
    await gesture()
    await act(async () => void fireEvent.click(screen.getByRole('button', { name: text.reveal })))
    expect(screen.getByTestId('export-key-value').textContent).toBe(privateKey)
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
    await act(async () => void document.dispatchEvent(new Event('visibilitychange')))
    Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true })
    await act(async () => void document.dispatchEvent(new Event('visibilitychange')))
    expect(document.body.textContent).not.toContain(privateKey.slice(2))
    expect(screen.queryByRole('button', { name: text.reveal })).toBeNull()
    expect(screen.queryByRole('button', { name: text.copy })).toBeNull()
    expect(screen.getByText(text.hiddenAgain)).toBeTruthy()
  })
})
