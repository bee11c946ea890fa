import { expect, test } from '@playwright/test'
import { createPublicClient, http, parseEther } from 'viem'
import { signUp } from './flows.ts'
import { frameOf, providerUrl, snap } from './helpers.ts'
import { click } from './click.ts'

test('Buy: IDR by default, live quote, minimum shown in red, Continue opens the hosted page that pays the wallet', async ({ page, request }) => {
  const address = await signUp(page, request)
  const chain = createPublicClient({ transport: http(`${providerUrl}/rpc/31337`) })
  const before = await chain.getBalance({ address })

  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await expect(frame.getByRole('button', { name: 'Buy' })).toBeEnabled()
  await click(frame.getByRole('button', { name: 'Buy' }))
  await expect(frame.getByRole('heading', { name: 'Buy' })).toBeVisible()
  await expect(frame.getByRole('button', { name: 'Select currency' })).toHaveText(/IDR/)
  await expect(frame.getByRole('button', { name: 'Select crypto' })).toContainText('ETH (Local Chain 1)')
  const next = frame.getByRole('button', { name: 'Continue', exact: true })
  await expect(next).toBeDisabled()

  const quotes: string[] = []
  page.on('request', (r) => r.url().includes('/v1/onramp/quote') && quotes.push(new URL(r.url()).searchParams.get('amount')!))
  // Typed key by key, faster than the 500 ms debounce: one quote, for the whole amount.
  await frame.getByLabel('You pay').pressSequentially('5000', { delay: 50 })
  await expect(frame.getByRole('alert')).toHaveText('Minimum amount is 10,000 IDR')
  await expect(next).toBeDisabled()
  // A 4xx quote is not refreshed (the refresh runs every 5 s otherwise).
  await page.waitForTimeout(6000)
  expect(quotes).toEqual(['5000'])

  await frame.getByLabel('You pay').fill('150000')
  await expect(frame.getByTestId('quote-receive')).toHaveText('≈ 0.00309375 ETH')
  await expect(frame.getByTestId('quote')).toContainText('IDR')
  await expect(next).toBeEnabled()
  await expect.poll(() => quotes.filter((a) => a === '150000').length, { timeout: 12_000 }).toBeGreaterThanOrEqual(2)
  await snap(page, 'profile-onramp')

  await click(frame.getByRole('button', { name: 'Select currency' }))
  await expect(frame.getByRole('listbox', { name: 'Select currency' })).toBeVisible()
  await snap(page, 'profile-select-currency')
  await click(frame.getByRole('option', { name: /IDR/ }))
  await click(frame.getByRole('button', { name: 'Select crypto' }))
  await expect(frame.getByRole('listbox', { name: 'Select crypto' })).toBeVisible()
  await snap(page, 'profile-select-crypto')
  await click(frame.getByRole('option', { name: 'ETH (Local Chain 1)' }))
  await expect(next).toBeEnabled()

  const tab = page.waitForEvent('popup')
  await click(next)
  const hosted = await tab
  expect(new URL(hosted.url()).searchParams.get('receiverWalletAddress')).toBe(address)
  await expect(hosted.getByRole('heading', { name: 'Confirm your order' })).toBeVisible()
  const receive = (await hosted.locator('#receive-amount').textContent())!.replace(/[^\d.]/g, '')
  await click(hosted.getByRole('button', { name: 'Pay with sandbox bank' }))
  await expect(hosted.getByRole('heading', { name: 'Payment received' })).toBeVisible()
  expect((await chain.getBalance({ address })) - before).toBe(parseEther(receive))
})
