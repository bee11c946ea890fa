import { expect, test } from '@playwright/test'
import { verifyMessage } from 'viem'
import { signUp } from './flows.ts'
import { confirmRequest, frameOf, snap } from './helpers.ts'
import { click } from './click.ts'

test('the demo page: sign a message, send a transaction, read the DEMO token balance', async ({ page, request }) => {
  const address = await signUp(page, request)
  const frame = frameOf(page)

  await click(page.getByRole('button', { name: 'Read token balance' }))
  await expect(page.getByTestId('token-balance')).toHaveText('1000 DEMO')

  await click(page.getByRole('button', { name: 'Sign message' }))
  await confirmRequest(page)
  await expect(page.getByTestId('signature')).toHaveText(/^0x[0-9a-f]{130}$/)
  const signature = (await page.getByTestId('signature').textContent()) as `0x${string}`
  expect(await verifyMessage({ address, message: 'Hello from the Wallet Kit demo', signature })).toBe(true)

  await click(page.getByRole('button', { name: 'Send transaction' }))
  await confirmRequest(page)
  await expect(page.getByTestId('transaction')).toHaveText(/^0x[0-9a-f]{64} \(success in block \d+\)$/)

  // A rejected request shows its EIP-1193 code on the page.
  await click(page.getByRole('button', { name: 'Sign message' }))
  await click(frame.getByRole('button', { name: 'Reject' }))
  await expect(page.getByRole('alert')).toContainText('code 4001')
  await snap(page, 'demo-page')
})
