// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { gesture, pointer } from '../../confirm/confirm-modal.fixture.tsx'
import { exportKeyText } from './export-key-text.ts'
import { KeyView } from './KeyView.tsx'

// Red team, the host page times the secure window: it opens from the frame's click, centred on the
// host's window where the page put its bait, and a click-spam game keeps the user clicking. A Copy
// taken by one of those clicks puts the key on the clipboard; the page's next 'paste your code here'
// has it. Reveal and Copy therefore take no click until the window has shown the key for 500 ms and
// the hand moved in it.

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

const text = exportKeyText.en
const privateKey = `0x${'3c'.repeat(32)}` as const

function showKey() {
  const writes: string[] = []
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: async (t: string) => void writes.push(t) }, configurable: true })
  render(<KeyView privateKey={privateKey} text={text} onGone={() => {}} />)
  return writes
}

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement
/** A click as a game lands it: wherever the pointer is, on whatever is there. */
const spam = (name: string) => act(async () => void fireEvent.click(button(name)))
const shownKey = () => document.body.textContent?.includes(privateKey.slice(2)) ?? false

describe('red team: Reveal and Copy under a click-spam game', () => {
  test('clicks landing as the key arrives, or later without a move of the hand, copy and reveal nothing', async () => {
    const writes = showKey()
    // The pointer is where the frame's button was: the clicks keep coming as the window appears.
    for (let i = 0; i < 5; i++) {
      await spam(text.copy)
      await spam(text.reveal)
      await act(() => vi.advanceTimersByTimeAsync(150))
    }
    // Past the 500 ms, the game still clicking in place: a still pointer is no one's choice.
    await act(async () => pointer('pointermove', { sx: 300, sy: 300, cx: 100, cy: 100 }))
    await act(() => vi.advanceTimersByTimeAsync(1000))
    await spam(text.copy)
    await spam(text.reveal)
    expect(writes).toEqual([])
    expect(shownKey()).toBe(false)
    expect(button(text.copy).disabled).toBe(true)

    // The hand moves in the window: the buttons answer, after the settle time.
    await gesture()
    await act(() => vi.advanceTimersByTimeAsync(600))
    expect(button(text.copy).disabled).toBe(false)
    await spam(text.copy)
    expect(writes).toEqual([privateKey])
    await spam(text.reveal)
    expect(shownKey()).toBe(true)
    // Hiding again is always allowed.
    await spam(text.hide)
    expect(shownKey()).toBe(false)
  })

  test('the window loses the user and gets them back (raised under a clicking pointer): disarmed until a new move', async () => {
    const writes = showKey()
    await gesture()
    await act(() => vi.advanceTimersByTimeAsync(600))
    expect(button(text.copy).disabled).toBe(false)
    await act(async () => {
      window.dispatchEvent(new Event('blur'))
      window.dispatchEvent(new Event('focus'))
    })
    await act(() => vi.advanceTimersByTimeAsync(1000))
    await spam(text.copy)
    await spam(text.reveal)
    expect(writes).toEqual([])
    expect(shownKey()).toBe(false)
    await gesture()
    await act(() => vi.advanceTimersByTimeAsync(600))
    await spam(text.reveal)
    expect(shownKey()).toBe(true)
  })
})

/** The window's export page, reduced to what matters here: the key until KeyView lets it go. */
function Holder() {
  const [gone, setGone] = useState(false)
  return gone ? <p>gone</p> : <KeyView privateKey={privateKey} text={text} onGone={() => setGone(true)} />
}

describe('red team: the key is off the page before the page is frozen or hidden', () => {
  // A page kept for the back button is frozen as it stands after its pagehide listeners ran; a
  // render React merely scheduled would come only when it is brought back, which shows the frozen
  // page (the key) first. The same goes for a snapshot taken of a window the user switched away from.
  test('pagehide and a hidden window take the key out of the document at once, not a task later', async () => {
    for (const leave of [
      () => window.dispatchEvent(new Event('pagehide')),
      () => {
        Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })
        document.dispatchEvent(new Event('visibilitychange'))
      },
    ]) {
      Object.defineProperty(navigator, 'clipboard', { value: { writeText: async () => {} }, configurable: true })
      render(<Holder />)
      await gesture()
      await act(() => vi.advanceTimersByTimeAsync(600))
      await spam(text.reveal)
      expect(shownKey()).toBe(true)
      // Outside act(): as the browser runs the listener, with nothing flushing React afterwards.
      leave()
      expect(shownKey()).toBe(false)
      expect(document.body.textContent).toContain('gone')
      Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true })
      await act(() => vi.advanceTimersByTimeAsync(0))
      cleanup()
    }
  })
})
