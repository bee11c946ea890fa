// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react'
import { stringToHex } from 'viem'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { alice } from '../wallet.fixture.ts'
import { createStore } from '../store.ts'
import type { SecureHandle, SecureState } from '../secure/secure-handle.ts'
import { resetZoom } from '../ui/use-confirm-gate.ts'
import { gesture, pointer, setup } from './confirm-modal.fixture.tsx'

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('the Confirm gate is keyed by request', () => {
  test('a queued request replacing a confirmed one starts disarmed, from its very first render', async () => {
    const { commits, ask, confirmations } = await setup()
    const a = ask('request A')
    void ask('request B')
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByTestId('confirm-message').textContent).toBe('request A')
    await gesture()
    await act(() => vi.advanceTimersByTimeAsync(550))
    expect((screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(false)

    await act(() => confirmations.confirm())
    await act(() => vi.advanceTimersByTimeAsync(500)) // A succeeded and closed: B takes its place
    expect(await a).toBe('0xsig')
    const firstOfB = commits.find((c) => c.message === 'request B')
    expect(firstOfB).toEqual({ message: 'request B', confirmEnabled: false })
    expect(commits.filter((c) => c.message === 'request B').every((c) => !c.confirmEnabled)).toBe(true)
    await gesture()
    await act(() => vi.advanceTimersByTimeAsync(550))
    expect((screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement).disabled).toBe(false)
  })
})

describe('what the confirmation shows', () => {
  test("every request names the site's verified origin; Reject all shows only when more than one waits", async () => {
    const { ask, confirmations } = await setup()
    const answers = [ask('one'), ask('two'), ask('three')]
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByTestId('confirm-origin').textContent).toBe('http://127.0.0.1:5173')
    expect(screen.getByTestId('confirm-queue').textContent).toContain('2 more requests are waiting')
    await act(async () => confirmations.reject())
    expect(screen.getByTestId('confirm-queue').textContent).toContain('1 more request is waiting')
    await act(async () => screen.getByRole('button', { name: 'Reject all' }).click())
    expect(await Promise.all(answers)).toEqual([4001, 4001, 4001])
    expect(screen.queryByRole('dialog')).toBeNull()

    void ask('alone')
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByTestId('confirm-origin').textContent).toBe('http://127.0.0.1:5173')
    expect(screen.queryByRole('button', { name: 'Reject all' })).toBeNull()
  })

  test('text that hides characters is shown as bytes with a warning; hex-looking text is labelled as text', async () => {
    const { ask, confirmations } = await setup()
    void ask('pay \u202Egnp.exe')
    void ask('0xdeadbeef')
    void ask('x'.repeat(1500))
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByTestId('confirm-message-kind').textContent).toBe('Bytes (hex)')
    expect(screen.getByTestId('confirm-message').textContent).toBe(stringToHex('pay \u202Egnp.exe'))
    expect(screen.getByTestId('confirm-message-warning').textContent).toContain('invisible or control characters')
    await act(async () => confirmations.reject())
    expect(screen.getByTestId('confirm-message-kind').textContent).toBe('Text')
    expect(screen.getByTestId('confirm-message').textContent).toBe('0xdeadbeef')
    expect(screen.getByTestId('confirm-message-warning').textContent).toContain('looks like hex')
    await act(async () => confirmations.reject())
    expect(screen.getByTestId('confirm-message').textContent).toHaveLength(1000)
    expect(screen.getByText('Showing the first 1000 of 1500 characters.')).toBeTruthy()
    await act(async () => screen.getByRole('button', { name: 'Show all' }).click())
    expect(screen.getByTestId('confirm-message').textContent).toHaveLength(1500)
  })

  test('a transaction shows the network by name, the maximum network fee and the total', async () => {
    const { confirmations } = await setup()
    void confirmations
      .request({
        kind: 'transaction',
        payload: {
          from: alice.address,
          to: '0x000000000000000000000000000000000000bEEF',
          value: '0',
          chainId: 31337,
          fee: { gasLimit: '21000', maxFeePerGas: '1000000000000', maxFee: '21000000000000000', total: '21000000000000000' },
        },
        run: async () => '0x',
        rejected: 'Transaction rejected by user',
        failed: 'Failed to send transaction',
      })
      .catch(() => {})
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByTestId('confirm-network').textContent).toBe('Local Chain 1')
    expect(screen.getByTestId('confirm-fee').textContent).toBe('0.021 ETH')
    expect(screen.getByTestId('confirm-total').textContent).toBe('0.021 ETH')
    expect(screen.getByText('21000 × 1000 gwei')).toBeTruthy()
  })
})

describe('a frame that cannot prove it is seen', () => {
  const fakeSecure = () => {
    const opened: string[] = []
    const secure: SecureHandle = { state: createStore<SecureState>({ status: 'idle', purpose: null }), open: (p) => void opened.push(p), preload() {} }
    return { secure, opened }
  }

  test('without IntersectionObserver v2 the frame has no Confirm at all, only the secure window (and Reject)', async () => {
    const { secure, opened } = fakeSecure()
    const { ask } = await setup({ presentation: 'frame', mode: 'frame', secure })
    void ask('sign me')
    await act(() => vi.advanceTimersByTimeAsync(5_000))
    expect(screen.getByTestId('confirm-message').textContent).toBe('sign me')
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Reject' })).toBeTruthy()
    await act(async () => screen.getByRole('button', { name: 'Open secure window' }).click())
    expect(opened).toEqual(['confirm'])
  })

  test("mode 'popup': the secure window even where the frame could prove it", async () => {
    const { secure } = fakeSecure()
    const { ask } = await setup({ presentation: 'frame', mode: 'popup', secure })
    void ask('sign me')
    await act(() => vi.advanceTimersByTimeAsync(5_000))
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Open secure window' })).toBeTruthy()
  })
})

describe('a frame that can prove it is seen (IntersectionObserver v2)', () => {
  beforeEach(() => {
    vi.stubGlobal(
      'IntersectionObserverEntry',
      class {
        get isVisible() {
          return true
        }
      },
    )
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        observe() {}
        disconnect() {}
      },
    )
  })
  afterEach(() => vi.unstubAllGlobals())

  test("a plain message is confirmed in the frame; the secure window's notes show only once the window is open or blocked", async () => {
    const state = createStore<SecureState>({ status: 'idle', purpose: null })
    const secure: SecureHandle = { state, open() {}, preload() {} }
    const { ask } = await setup({ presentation: 'frame', mode: 'frame', secure })
    void ask('sign me')
    await act(() => vi.advanceTimersByTimeAsync(600))
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Open secure window' })).toBeNull()
    expect(screen.queryByText(/secure window/i)).toBeNull()
    await act(async () => state.set({ status: 'open', purpose: 'confirm' }))
    expect(screen.getByTestId('secure-window-open')).toBeTruthy()
    await act(async () => state.set({ status: 'blocked', purpose: 'confirm' }))
    expect(screen.getByTestId('secure-window-blocked')).toBeTruthy()
    await act(async () => state.set({ status: 'open', purpose: 'login' }))
    expect(screen.queryByText(/secure window/i)).toBeNull()
  })
})

describe('the gate re-arms', () => {
  beforeEach(() => resetZoom(1))

  test('when what is under a still pointer shifts (the frame moved), and when the pointer comes in from outside', async () => {
    const { ask } = await setup()
    void ask('sign me')
    await act(() => vi.advanceTimersByTimeAsync(0))
    await gesture()
    await act(() => vi.advanceTimersByTimeAsync(600))
    const confirm = () => screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement
    expect(confirm().disabled).toBe(false)
    // The pointer moves with the page: nothing moved under it.
    await act(async () => pointer('pointermove', { sx: 300, sy: 300, cx: 100, cy: 100 }))
    await act(async () => pointer('pointermove', { sx: 310, sy: 305, cx: 110, cy: 105 }))
    expect(confirm().disabled).toBe(false)
    // Same place on the screen, another place in the frame: the frame moved under it.
    await act(async () => pointer('pointermove', { sx: 310, sy: 305, cx: 150, cy: 105 }))
    expect(confirm().disabled).toBe(true)
    await gesture()
    await act(() => vi.advanceTimersByTimeAsync(499))
    expect(confirm().disabled).toBe(true)
    await act(() => vi.advanceTimersByTimeAsync(52))
    expect(confirm().disabled).toBe(false)
    // The pointer arrives from outside the frame (the second click of a double-click lure).
    await act(async () => pointer('pointerover', { sx: 0, sy: 0, cx: 5, cy: 5 }, null))
    expect(confirm().disabled).toBe(true)
    await act(() => vi.advanceTimersByTimeAsync(551))
    // In the window, still not without a movement of the hand after it came in.
    expect(confirm().disabled).toBe(true)
    await gesture()
    expect(confirm().disabled).toBe(false)
  })

  test('when the host moves the frame a little at each step of a moving pointer (no tolerance grows with the travel)', async () => {
    const { ask } = await setup()
    void ask('sign me')
    await act(() => vi.advanceTimersByTimeAsync(0))
    await act(async () => pointer('pointermove', { sx: 285, sy: 300, cx: 85, cy: 100 }))
    await gesture()
    await act(() => vi.advanceTimersByTimeAsync(600))
    const confirm = () => screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement
    expect(confirm().disabled).toBe(false)
    // 10 px to the right on the screen, 25 px in the frame: the frame slid 15 px left under it.
    await act(async () => pointer('pointermove', { sx: 310, sy: 300, cx: 125, cy: 100 }))
    expect(confirm().disabled).toBe(true)
  })

  test("a zoomed page (125 %) is learned from the pointer's own travel and then disarms nothing", async () => {
    const { ask } = await setup()
    void ask('sign me')
    await act(() => vi.advanceTimersByTimeAsync(600))
    const confirm = () => screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement
    // Eight moves that agree: 10 px on the screen for every 8 px in the page.
    for (let i = 0; i <= 8; i++) await act(async () => pointer('pointermove', { sx: 300 + 10 * i, sy: 300, cx: 100 + 8 * i, cy: 100 }))
    await act(() => vi.advanceTimersByTimeAsync(551))
    expect(confirm().disabled).toBe(false)
    for (let i = 9; i <= 20; i++) await act(async () => pointer('pointermove', { sx: 300 + 10 * i, sy: 300 + 5 * i, cx: 100 + 8 * i, cy: 100 + 4 * i }))
    expect(confirm().disabled).toBe(false)
    // And a move of the frame is still seen at that zoom.
    await act(async () => pointer('pointermove', { sx: 500, sy: 400, cx: 190, cy: 80 }))
    expect(confirm().disabled).toBe(true)
  })
})

describe('the secure window while the frame on the page asks a step-up', () => {
  test('it says to answer there, with neither Confirm nor Reject, and shows them again once the frame stops asking', async () => {
    const { wallet, confirmations, ask } = await setup()
    void ask('pay the rent')
    await act(() => vi.advanceTimersByTimeAsync(0))
    const shown = wallet.ui.get().confirmation!
    // The window's copy as the frame posts it (frame-flows.ts), mirrored as window-main.tsx does.
    await act(async () => confirmations.mirror({ ...shown, status: 'loading', askingStepUp: true }, 0))
    expect(screen.getByTestId('confirm-step-up-on-page').textContent).toBe(
      'This transaction needs a second confirmation: answer it in the wallet on the page. This window closes once the transaction is sent.',
    )
    expect(screen.queryByRole('button', { name: 'Confirm' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Reject' })).toBeNull()
    await act(async () => confirmations.mirror({ ...shown, status: 'loading' }, 0))
    expect(screen.queryByTestId('confirm-step-up-on-page')).toBeNull()
    expect(screen.getByRole('button', { name: 'Reject' })).toBeTruthy()
  })
})
