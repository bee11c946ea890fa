// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react'
import { afterEach, expect, test } from 'vitest'
import { Qr } from './Qr.tsx'

afterEach(cleanup)

test("what no QR code of version 1 to 40 holds shows 'No input text' or 'too big', not a code", () => {
  render(<Qr data="" label="QR" testId="qr" />)
  expect(screen.getByRole('alert').textContent).toBe('No input text')
  cleanup()
  render(<Qr data={'x'.repeat(3000)} label="QR" testId="qr" />)
  expect(screen.getByRole('alert').textContent).toBe('The amount of data is too big to be stored in a QR Code')
  expect(screen.queryByRole('img')).toBeNull()
})

test('the code is drawn at 350 by 350 px', async () => {
  const { container } = render(<Qr data="0x00000000000000000000000000000000000A11cE" label="QR of the address" testId="qr" />)
  expect(screen.getByRole('img', { name: 'QR of the address' })).toBeTruthy()
  await waitFor(() => expect(container.querySelector('[data-testid=qr] svg')).not.toBeNull())
  const svg = container.querySelector('[data-testid=qr] svg')!
  expect([svg.getAttribute('width'), svg.getAttribute('height'), svg.getAttribute('viewBox')]).toEqual(['350', '350', '0 0 350 350'])
})
