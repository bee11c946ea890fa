import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { createPublicClient, http, parseEther, toHex } from 'viem'
import { startRequest } from './flows.ts'
import { confirmRequest, frameOf, latestCode, openSecureWindow, pressConfirm, providerUrl, signUpInFrame, snap } from './helpers.ts'
import { click } from './click.ts'

// The seeded 'stepup' app asks a confirmation code for a transaction above 0.01 ETH on chain 31337.

const chain = createPublicClient({ transport: http(`${providerUrl}/rpc/31337`) })
const to = '0x000000000000000000000000000000000000bEEF'

async function signUpOnStepUpApp(page: Page, request: APIRequestContext) {
  await page.goto('/demo/')
  await page.evaluate(() => {
    window.WalletKit!.kit!.destroy()
    return window.WalletKit!.createWalletKit({ appId: 'stepup', env: 'production' }).open('connect')
  })
  const email = await signUpInFrame(page, request)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  const [address] = (await page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_accounts' }))) as `0x${string}`[]
  return { address: address!, email }
}

/** Confirms the transaction in the secure window; the code step then shows in the wallet frame. */
async function confirmUntilCode(page: Page) {
  const popup = await openSecureWindow(page)
  await pressConfirm(popup.getByRole('button', { name: 'Confirm' }))
  const step = frameOf(page).getByTestId('confirm-step-up')
  await expect(step.getByLabel('Confirmation code')).toBeVisible()
  // The code step stands in for the confirmation's own buttons: one Reject, no second Confirm.
  await expect(frameOf(page).getByRole('button', { name: 'Reject' })).toHaveCount(1)
  await expect(frameOf(page).getByRole('button', { name: 'Confirm' })).toHaveCount(1)
  // The code is typed here, not in the secure window: the frame does not send the user there.
  await expect(frameOf(page).getByText('Continue in the secure window.')).toHaveCount(0)
  return { popup, step }
}

test('below the threshold a transaction confirms as before; above it the code is asked, a wrong one sends nothing, the right one sends', async ({
  page,
  request,
}) => {
  const { address, email } = await signUpOnStepUpApp(page, request)

  const small = startRequest(page, 'eth_sendTransaction', [{ from: address, to, value: toHex(parseEther('0.005')) }])
  await confirmRequest(page)
  const sentSmall = await small
  expect(sentSmall.result).toMatch(/^0x[0-9a-f]{64}$/)
  expect((await chain.waitForTransactionReceipt({ hash: sentSmall.result as `0x${string}` })).status).toBe('success')

  const nonce = await chain.getTransactionCount({ address })
  const large = startRequest(page, 'eth_sendTransaction', [{ from: address, to, value: toHex(parseEther('0.05')) }])
  const { step } = await confirmUntilCode(page)
  await snap(page, 'step-up-transaction-code')
  const code = await latestCode(request, email)
  await step.getByLabel('Confirmation code').fill(code === '000000' ? '111111' : '000000')
  await expect(step.getByRole('alert')).toHaveText('Invalid OTP')
  await snap(page, 'step-up-transaction-wrong-code')
  expect(await chain.getTransactionCount({ address })).toBe(nonce)

  await step.getByLabel('Confirmation code').fill(code)
  const sentLarge = await large
  expect(sentLarge.result).toMatch(/^0x[0-9a-f]{64}$/)
  const receipt = await chain.waitForTransactionReceipt({ hash: sentLarge.result as `0x${string}` })
  expect(receipt.status).toBe('success')
  expect(await chain.getTransactionCount({ address })).toBe(nonce + 1)
})

test('rejecting at the code step answers the dapp 4001 and sends nothing', async ({ page, request }) => {
  const { address } = await signUpOnStepUpApp(page, request)
  const nonce = await chain.getTransactionCount({ address })
  const large = startRequest(page, 'eth_sendTransaction', [{ from: address, to, value: toHex(parseEther('0.05')) }])
  const { step } = await confirmUntilCode(page)
  await click(step.getByRole('button', { name: 'Reject' }))
  expect(await large).toEqual({ code: 4001, message: 'Transaction rejected by user' })
  expect(await chain.getTransactionCount({ address })).toBe(nonce)
})
