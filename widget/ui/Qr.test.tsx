// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, expect, test } from 'vitest'
import { Qr } from './Qr.tsx'

afterEach(cleanup)

test("what no QR code of version 1 to 40 holds shows SPEC's error, not a code", () => {
  render(<Qr data="" label="QR" testId="qr" />)
  expect(screen.getByRole('alert').textContent).toBe('No input text')
  cleanup()
  render(<Qr data={'x'.repeat(3000)} label="QR" testId="qr" />)
  expect(screen.getByRole('alert').textContent).toBe('The amount of data is too big to be stored in a QR Code')
  expect(screen.queryByRole('img')).toBeNull()
})
