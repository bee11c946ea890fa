import { expect, test } from '@playwright/test'
import { confirmSignature, logInInFrame, openConnect } from './helpers.ts'
import { click } from './click.ts'

test('the React wrapper: provider, hook and ConnectButton in a React page', async ({ page, request }) => {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(e.message))
  await page.goto('/react/')
  await expect(page.getByTestId('status')).toHaveText('disconnected')
  // StrictMode mounts twice: still exactly one kit and one frame.
  await expect(page.getByTestId('wallet-kit-frame')).toHaveCount(1)

  await openConnect(page)
  await logInInFrame(page, request)
  await expect(page.getByTestId('status')).toHaveText('connected')
  const address = (await page.getByTestId('address').textContent())!
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  await expect(page.getByTestId('chain')).toHaveText('31337')
  await expect(page.getByTestId('balance')).toHaveText(/ ETH$/)
  await expect(page.getByRole('button', { name: `${address.slice(0, 6)}…${address.slice(-4)}` })).toBeVisible()

  await click(page.getByRole('button', { name: 'Sign message' }))
  await confirmSignature(page)
  await expect(page.getByTestId('signature')).toHaveText(/^0x[0-9a-f]{130}$/)

  await click(page.getByRole('button', { name: 'Disconnect' }))
  await expect(page.getByTestId('status')).toHaveText('disconnected')
  expect(errors).toEqual([])
})
