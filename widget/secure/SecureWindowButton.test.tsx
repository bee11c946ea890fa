// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, expect, test, vi } from 'vitest'
import { Widget, type WidgetContext } from '../context.ts'
import { createStore } from '../store.ts'
import type { SecureHandle, SecureState } from './secure-handle.ts'
import { SecureWindowButton, SecureWindowNotes } from './SecureWindowButton.tsx'

afterEach(cleanup)

const withSecure = (children: ReactNode) => {
  const secure: SecureHandle = { state: createStore<SecureState>({ status: 'idle', purpose: null }), open: vi.fn(), preload: vi.fn() }
  render(<Widget.Provider value={{ secure, locale: 'en' } as unknown as WidgetContext}>{children}</Widget.Provider>)
  return secure
}

test("the notes alone load none of the secure window's code (a confirmation the frame may take shows them under its own Confirm)", () => {
  const secure = withSecure(<SecureWindowNotes purpose="confirm" hint />)
  expect(screen.getByText(/secure window/i)).toBeTruthy()
  expect(secure.preload).not.toHaveBeenCalled()
})

test('the button preloads it as it shows, so that the code is there by the click', () => {
  const secure = withSecure(
    <>
      <SecureWindowNotes purpose="confirm" hint={false} />
      <SecureWindowButton purpose="confirm" />
    </>,
  )
  expect(screen.getByRole('button', { name: 'Open secure window' })).toBeTruthy()
  expect(secure.preload).toHaveBeenCalledTimes(1)
})
