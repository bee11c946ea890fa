// @vitest-environment happy-dom
import { act, cleanup, screen } from '@testing-library/react'
import { createSiweMessage } from 'viem/siwe'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { alice } from '../wallet.fixture.ts'
import { createStore } from '../store.ts'
import type { SecureHandle, SecureState } from '../secure/secure-handle.ts'
import { gesture, pointer, setup } from './confirm-modal.fixture.tsx'

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('the secure window: Confirm waits for a deliberate interaction (a double-click game never lands on it)', () => {
  const confirm = () => screen.getByRole('button', { name: 'Confirm' }) as HTMLButtonElement

  test('no movement of the hand since it showed: disabled however long it waits, and a click is not taken', async () => {
    const { ask } = await setup()
    const answer = ask('sign me')
    await act(() => vi.advanceTimersByTimeAsync(5_000))
    expect(confirm().disabled).toBe(true)
    // A click reaches it anyway (the button re-enabled by a script, or a stale render): not taken.
    confirm().disabled = false
    await act(async () => confirm().click())
    expect(await Promise.race([answer, Promise.resolve('pending')])).toBe('pending')
    confirm().disabled = true
    // A pointer that only rests, or moves less than 8 px, is not a hand moving to it.
    await act(async () => pointer('pointermove', { sx: 400, sy: 400, cx: 200, cy: 200 }))
    await act(async () => pointer('pointermove', { sx: 403, sy: 404, cx: 203, cy: 204 }))
    expect(confirm().disabled).toBe(true)
    await gesture()
    expect(confirm().disabled).toBe(false)
    await act(async () => confirm().click())
    await act(() => vi.advanceTimersByTimeAsync(500))
    expect(await answer).toBe('0xsig')
  })

  test('a focus key counts, Enter does not; the window losing and regaining focus asks again', async () => {
    const { ask } = await setup()
    void ask('sign me')
    await act(() => vi.advanceTimersByTimeAsync(600))
    await act(async () => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter' })))
    expect(confirm().disabled).toBe(true)
    await act(async () => window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' })))
    expect(confirm().disabled).toBe(false)
    await act(async () => window.dispatchEvent(new Event('blur')))
    await act(async () => window.dispatchEvent(new Event('focus')))
    await act(() => vi.advanceTimersByTimeAsync(600))
    expect(confirm().disabled).toBe(true)
    await gesture()
    expect(confirm().disabled).toBe(false)
  })
})

describe("the offer of the secure window keeps Confirm's timing", () => {
  test('not taken right after the request shows or the pointer comes in; taken once it has rested', async () => {
    const opened: string[] = []
    const secure: SecureHandle = { state: createStore<SecureState>({ status: 'idle', purpose: null }), open: (p) => void opened.push(p), preload() {} }
    const { ask } = await setup({ presentation: 'frame', mode: 'frame', secure })
    void ask('sign me')
    await act(() => vi.advanceTimersByTimeAsync(0))
    const offer = () => screen.getByRole('button', { name: 'Open secure window' }) as HTMLButtonElement
    expect(offer().disabled).toBe(true)
    offer().disabled = false
    await act(async () => offer().click())
    expect(opened).toEqual([])
    await act(() => vi.advanceTimersByTimeAsync(550))
    expect(offer().disabled).toBe(false)
    // The pointer arrives from outside the frame: the first click of a game is not taken.
    await act(async () => pointer('pointerover', { sx: 0, sy: 0, cx: 5, cy: 5 }, null))
    expect(offer().disabled).toBe(true)
    await act(() => vi.advanceTimersByTimeAsync(550))
    await act(async () => offer().click())
    expect(opened).toEqual(['confirm'])
  })
})

describe('what is signed is shown as what it is', () => {
  test('a recipient and every call target are shown whole and checksummed (two addresses never read the same)', async () => {
    const { confirmations } = await setup()
    const transaction = (payload: object) =>
      void confirmations
        .request({
          kind: 'transaction',
          payload: { from: alice.address, chainId: 31337, ...payload },
          run: async () => '0x',
          rejected: 'Transaction rejected by user',
          failed: 'Failed to send transaction',
        })
        .catch(() => {})
    transaction({ to: '0xa11ce00000000000000000000000000000aabbcc', value: '9' })
    transaction({
      sponsored: true,
      calls: [
        { to: '0xa11ce00000000000000000000000000000aabbcc', value: '1' },
        { to: '0xa11ce11111111111111111111111111111aabbcc', value: '0', data: '0xa9059cbb' },
      ],
    })
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByTestId('confirm-to').textContent).toBe('0xA11cE00000000000000000000000000000aaBBCC')
    await act(async () => confirmations.reject())
    expect(screen.getByTestId('confirm-call-1').textContent).toBe('0xA11cE00000000000000000000000000000aaBBCC · 1 ETH')
    expect(screen.getByTestId('confirm-call-2').textContent).toContain('0xA11Ce11111111111111111111111111111aabBCC · 0 ETH')
  })

  test('32 opaque bytes (an operation or transaction hash) are blind signing, and say so', async () => {
    const { confirmations } = await setup()
    void confirmations
      .request({
        kind: 'message',
        payload: { from: alice.address, chainId: 31337, message: `0x${'8e'.repeat(32)}` },
        run: async () => '0xsig',
        rejected: 'Message signing rejected by user',
        failed: 'Failed to sign message',
      })
      .catch(() => {})
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByTestId('confirm-message-kind').textContent).toBe('Bytes (hex)')
    expect(screen.getByTestId('confirm-message-warning').textContent).toMatch(/^Blind signing: these 32 bytes look like a hash/)
  })

  test('a sign-in message for another site says which site, and that the request comes from this one', async () => {
    const { ask } = await setup()
    void ask(
      createSiweMessage({
        address: alice.address as `0x${string}`,
        chainId: 31337,
        domain: 'app.uniswap.org',
        nonce: 'foobarbaz1',
        uri: 'https://app.uniswap.org/',
        version: '1',
      }),
    )
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(screen.getByTestId('confirm-sign-in-warning').textContent).toBe(
      'This signs you in to app.uniswap.org, but the request comes from http://127.0.0.1:5173. Signing it could let this site act as you on app.uniswap.org.',
    )
  })
})
