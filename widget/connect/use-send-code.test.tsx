// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { Home } from './Home.tsx'
import { renderConnect } from './connect.fixture.tsx'

afterEach(cleanup)

test('a second submit while the code request is in flight is ignored, even in the same tick', async () => {
  let answer = (_: { verificationToken: string }) => {}
  const loginOtp = vi.fn(() => new Promise<{ verificationToken: string }>((resolve) => (answer = resolve)))
  const { wallet } = await renderConnect(<Home />, { client: { auth: { loginOtp } } })
  fireEvent.change(screen.getByPlaceholderText('Enter your email'), { target: { value: 'twice@example.com' } })
  const form = screen.getByPlaceholderText('Enter your email').closest('form')!
  // Two submits before React renders again (Enter and a click together, a double tap).
  act(() => {
    fireEvent.submit(form)
    fireEvent.submit(form)
  })
  expect(loginOtp).toHaveBeenCalledTimes(1)
  expect(screen.getByRole('button', { name: 'Sending…' })).toHaveProperty('disabled', true)
  await act(async () => answer({ verificationToken: 'v' }))
  expect(wallet.ui.get().page).toBe('otp')
  // Once the answer is in, the guard is released.
  expect(loginOtp).toHaveBeenCalledTimes(1)
})

test('an invalid e-mail makes no call and says so', async () => {
  const loginOtp = vi.fn()
  await renderConnect(<Home />, { client: { auth: { loginOtp } } })
  fireEvent.change(screen.getByPlaceholderText('Enter your email'), { target: { value: 'not-an-email' } })
  act(() => void fireEvent.submit(screen.getByPlaceholderText('Enter your email').closest('form')!))
  expect(screen.getByText('Invalid email').getAttribute('role')).toBe('alert')
  expect(loginOtp).not.toHaveBeenCalled()
})
