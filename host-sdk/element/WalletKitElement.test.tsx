// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import type { WalletKit } from '../kit.ts'
import { createElementComponent } from './WalletKitElement.tsx'

afterEach(cleanup)

/** A kit stand-in: nobody connected, its events fired by the test. */
function fakeKit() {
  const listeners = new Map<string, Set<(payload: unknown) => void>>()
  const kit = {
    provider: { request: async ({ method }: { method: string }) => (method === 'eth_accounts' ? [] : '0x7a69') },
    on: (event: string, fn: (payload: unknown) => void) => void (listeners.get(event) ?? listeners.set(event, new Set()).get(event)!).add(fn),
    off: (event: string, fn: (payload: unknown) => void) => void listeners.get(event)?.delete(fn),
    open: async () => {},
  } as unknown as WalletKit
  const emit = (event: string, payload: unknown) => {
    for (const fn of listeners.get(event) ?? []) fn(payload)
  }
  return { kit, emit }
}

test('event callbacks are the latest the page set, not the ones the element started with', async () => {
  const { kit, emit } = fakeKit()
  const Element = createElementComponent(() => kit)
  const first = vi.fn()
  const second = vi.fn()
  const { rerender } = render(<Element onConnect={first} />)
  await act(async () => rerender(<Element onConnect={second} />))
  emit('connect', { chainId: '0x7a69' })
  expect(second).toHaveBeenCalledWith({ chainId: '0x7a69' })
  expect(first).not.toHaveBeenCalled()
})
