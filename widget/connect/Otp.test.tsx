// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { Otp } from './Otp.tsx'
import { renderConnect } from './connect.fixture.tsx'
import { setUi } from '../wallet.fixture.ts'

// The resend countdown starts at 30 s for e-mail and 300 s for WhatsApp,
// and at 300 s after a resend; Resend is disabled while it counts.

beforeEach(() => vi.useFakeTimers())
afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

async function otpPage(channel: 'email' | 'whatsapp') {
  const loginOtp = vi.fn(async () => ({ verificationToken: 'second' }))
  const loginWhatsapp = vi.fn(async () => ({ verificationToken: 'second' }))
  const to = channel === 'email' ? 'a@example.com' : '6281234'
  const page = await renderConnect(<Otp />, {
    client: { auth: { loginOtp, loginWhatsapp } },
    setup: (wallet) => setUi(wallet, { otpTarget: { channel, to, verificationToken: 'first' } }),
  })
  return { ...page, loginOtp, loginWhatsapp }
}

const resend = () => screen.getByRole('button', { name: /^Resend/ }) as HTMLButtonElement
const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
/** Lets `n` seconds pass one at a time: each second's render schedules the next (use-timed.ts). */
async function seconds(n: number) {
  for (let i = 0; i < n; i++) await tick(1000)
}

test('e-mail: exactly 30 s, then Resend; a resend counts 300 s again', async () => {
  await otpPage('email')
  expect(resend().textContent).toBe('Resend in 30s')
  expect(resend().disabled).toBe(true)
  await seconds(29)
  expect(resend().textContent).toBe('Resend in 1s')
  expect(resend().disabled).toBe(true)
  await seconds(1)
  expect(resend().textContent).toBe('Resend')
  expect(resend().disabled).toBe(false)
  fireEvent.click(resend())
  await tick(0)
  expect(resend().textContent).toBe('Resend in 300s')
  expect(resend().disabled).toBe(true)
  await seconds(299)
  expect(resend().textContent).toBe('Resend in 1s')
  await seconds(1)
  expect(resend().disabled).toBe(false)
})

test('WhatsApp: 300 s from the start', async () => {
  await otpPage('whatsapp')
  expect(resend().textContent).toBe('Resend in 300s')
  await seconds(299)
  expect(resend().disabled).toBe(true)
  await seconds(1)
  expect(resend().textContent).toBe('Resend')
})

test('the resend goes to the same address and its new verification token is the one the code is checked against', async () => {
  const verifyOtp = vi.fn(() => new Promise(() => {}))
  const loginOtp = vi.fn(async () => ({ verificationToken: 'second' }))
  const { wallet } = await renderConnect(<Otp />, {
    client: { auth: { loginOtp, verifyOtp } },
    setup: (wallet) => setUi(wallet, { otpTarget: { channel: 'email', to: 'a@example.com', verificationToken: 'first' } }),
  })
  await seconds(30)
  fireEvent.click(resend())
  await tick(0)
  expect(loginOtp).toHaveBeenCalledWith({ email: 'a@example.com' })
  expect(wallet.ui.get().otpTarget?.verificationToken).toBe('second')
  fireEvent.change(screen.getByLabelText('Verification code'), { target: { value: '123456' } })
  expect(verifyOtp).toHaveBeenCalledWith({ verificationToken: 'second', otp: '123456' })
})
