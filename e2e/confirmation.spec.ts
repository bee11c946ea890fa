import { expect, test, type Page } from '@playwright/test'
import { createPublicClient, formatEther, http, parseGwei, stringToHex } from 'viem'
import { signUp, startRequest } from './flows.ts'
import { confirmRequest, demoOrigin, frameOf, providerUrl, snap } from './helpers.ts'
import { click } from './click.ts'

const chains = {
  31337: createPublicClient({ transport: http(`${providerUrl}/rpc/31337`) }),
  31338: createPublicClient({ transport: http(`${providerUrl}/rpc/31338`) }),
}
const to = '0x000000000000000000000000000000000000bEEF'

/**
 * The demo page, reloaded, as a host that narrowed its chains: its kit replaced by one created with
 * `chains` (a page served by Playwright itself may not load kit.js from loopback, so the real page
 * stays and only its kit changes).
 */
async function reloadWithChains(page: Page, chains: number[]): Promise<void> {
  await page.reload()
  await page.evaluate((chains) => {
    window.WalletKit!.kit!.destroy()
    window.WalletKit!.createWalletKit({ appId: 'demo', env: 'production', chains })
  }, chains)
}

test('a session saved on 31337, a host that offers only 31338: eth_chainId, the network shown and the one used agree; a transaction pinned to 31337 is refused', async ({
  page,
  request,
}) => {
  const address = await signUp(page, request)
  const nonces = async () => Promise.all([chains[31337].getTransactionCount({ address }), chains[31338].getTransactionCount({ address })])
  const before = await nonces()

  await reloadWithChains(page, [31338])
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [address] })
  expect(await startRequest(page, 'eth_chainId')).toEqual({ result: '0x7a6a' })

  // Pinned to the stored chain: refused before any modal, nothing signed or sent.
  expect(await startRequest(page, 'eth_sendTransaction', [{ from: address, to, value: '0x1', chainId: '0x7a69' }])).toEqual({
    code: -32602,
    message: 'transaction is for chain 31337, the wallet is on Local Chain 2 (31338): switch chains first',
  })
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  expect(await nonces()).toEqual(before)

  // Unpinned: shown on Local Chain 2 by name, and sent there.
  const pending = startRequest(page, 'eth_sendTransaction', [{ from: address, to, value: '0x1' }])
  const frame = frameOf(page)
  await expect(frame.getByTestId('confirm-network')).toHaveText('Local Chain 2')
  await page.locator('#error').evaluate((e) => (e.textContent = '')) // the demo's own kit was destroyed above
  await snap(page, 'confirmation-narrowed-chain')
  await confirmRequest(page)
  const { result } = await pending
  const receipt = await chains[31338].waitForTransactionReceipt({ hash: result as `0x${string}` })
  expect(receipt.status).toBe('success')
  expect(await nonces()).toEqual([before[0], before[1] + 1])
})

test('value 0 with a large maxFeePerGas: the maximum fee and the total are shown in ETH, and sent as shown', async ({ page, request }) => {
  const address = await signUp(page, request)
  const maxFeePerGas = parseGwei('1000')
  const pending = startRequest(page, 'eth_sendTransaction', [
    { from: address, to, value: '0x0', gas: '0x5208', maxFeePerGas: `0x${maxFeePerGas.toString(16)}` },
  ])
  const frame = frameOf(page)
  await expect(frame.getByTestId('confirm-fee')).toHaveText('0.021 ETH')
  await expect(frame.getByTestId('confirm-total')).toHaveText('0.021 ETH')
  await expect(frame.getByText('21000 × 1000 gwei')).toBeVisible()
  await expect(frame.getByRole('button', { name: 'Open secure window' })).toBeEnabled()
  await snap(page, 'confirmation-fee')
  await confirmRequest(page)
  const { result } = await pending
  const tx = await chains[31337].getTransaction({ hash: result as `0x${string}` })
  expect({ gas: tx.gas, maxFeePerGas: tx.maxFeePerGas }).toEqual({ gas: 21000n, maxFeePerGas })

  // No fee fields at all: the estimate is shown, and the transaction carries exactly that cap.
  const estimated = startRequest(page, 'eth_sendTransaction', [{ from: address, to, value: '0x1' }])
  const fee = (await frame.getByTestId('confirm-fee').textContent())!
  expect(fee).toMatch(/^0\.\d+ ETH$/)
  await confirmRequest(page)
  const sent = await chains[31337].getTransaction({ hash: (await estimated).result as `0x${string}` })
  expect(`${formatEther(sent.gas * sent.maxFeePerGas!)} ETH`).toBe(fee)

  // Both kinds of fee at once cannot be shown as one: refused, nothing opened.
  expect(await startRequest(page, 'eth_sendTransaction', [{ from: address, to, gasPrice: '0x1', maxFeePerGas: '0x1' }])).toMatchObject({ code: -32602 })
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
})

test('a flood of 50 requests: 10 wait, the rest fail at once with -32005; every one names the site; Reject all answers each with 4001', async ({
  page,
  request,
}) => {
  const address = await signUp(page, request)
  await page.evaluate((address) => {
    const answers: ({ code: number; message: string } | { result: unknown } | null)[] = Array(50).fill(null)
    Object.assign(window, { flood: answers })
    for (let i = 0; i < 50; i++)
      window.WalletKit!.kit!.provider.request({ method: 'personal_sign', params: [`0x${(0x1000 + i).toString(16)}`, address] }).then(
        (result) => (answers[i] = { result }),
        (e: { code: number; message: string }) => (answers[i] = { code: e.code, message: e.message }),
      )
  }, address)
  const answers = () => page.evaluate(() => (window as unknown as { flood: ({ code?: number; message?: string } | null)[] }).flood)
  await expect.poll(async () => (await answers()).filter((a) => a !== null).length).toBe(40)
  const settled = (await answers()).filter((a) => a !== null)
  for (const a of settled)
    expect(a).toEqual({ code: -32005, message: "10 requests are already waiting for the user's confirmation: try again once they are answered" })

  const frame = frameOf(page)
  await expect(frame.getByTestId('confirm-origin')).toHaveText(demoOrigin)
  await expect(frame.getByTestId('confirm-queue')).toContainText('9 more requests are waiting')
  await snap(page, 'confirmation-reject-all')
  // One answered by hand: the next one names the site as well.
  await click(frame.getByRole('button', { name: 'Reject', exact: true }))
  await expect(frame.getByTestId('confirm-queue')).toContainText('8 more requests are waiting')
  await expect(frame.getByTestId('confirm-origin')).toHaveText(demoOrigin)
  await click(frame.getByRole('button', { name: 'Reject all' }))
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
  const all = await answers()
  expect(all.filter((a) => a?.code === 4001)).toHaveLength(10)
  expect(all.filter((a) => a?.code === -32005)).toHaveLength(40)
  // Room again afterwards.
  const again = startRequest(page, 'personal_sign', ['0x6869', address])
  await expect(frame.getByTestId('confirm-message')).toHaveText('hi')
  await expect(frame.getByTestId('confirm-queue')).toBeHidden()
  await click(frame.getByRole('button', { name: 'Reject' }))
  expect(await again).toMatchObject({ code: 4001 })
})

test('personal_sign: text that hides characters is shown as bytes with a warning; hex-looking text is labelled text', async ({ page, request }) => {
  const address = await signUp(page, request)
  const frame = frameOf(page)
  const sneaky = 'Approve \u202Egnp.exe'
  const first = startRequest(page, 'personal_sign', [stringToHex(sneaky), address])
  await expect(frame.getByTestId('confirm-message-kind')).toHaveText('Bytes (hex)')
  await expect(frame.getByTestId('confirm-message')).toHaveText(stringToHex(sneaky))
  await expect(frame.getByTestId('confirm-message-warning')).toContainText('invisible or control characters')
  await snap(page, 'confirmation-hex-warning')
  await click(frame.getByRole('button', { name: 'Reject' }))
  expect(await first).toMatchObject({ code: 4001 })

  const second = startRequest(page, 'personal_sign', [stringToHex('0xdeadbeef'), address])
  await expect(frame.getByTestId('confirm-message-kind')).toHaveText('Text')
  await expect(frame.getByTestId('confirm-message')).toHaveText('0xdeadbeef')
  await expect(frame.getByTestId('confirm-message-warning')).toContainText('looks like hex')
  await snap(page, 'confirmation-hex-looking-text')
  await click(frame.getByRole('button', { name: 'Reject' }))
  expect(await second).toMatchObject({ code: 4001 })

  // Half a byte cannot be signed as shown: refused.
  expect(await startRequest(page, 'personal_sign', ['0xabc', address])).toMatchObject({ code: -32602 })

  const third = startRequest(page, 'personal_sign', ['0xdeadbeef', address])
  await expect(frame.getByTestId('confirm-message-kind')).toHaveText('Bytes (hex)')
  await expect(frame.getByTestId('confirm-message-warning')).toBeHidden()
  await click(frame.getByRole('button', { name: 'Reject' }))
  expect(await third).toMatchObject({ code: 4001 })
})
