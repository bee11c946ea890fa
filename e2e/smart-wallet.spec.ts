import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { createPublicClient, createWalletClient, custom, encodeFunctionData, erc20Abi, http } from 'viem'
import { signUp, startRequest } from './flows.ts'
import { confirmRequest, confirmSignature, frameOf, logInInFrame, providerUrl, snap } from './helpers.ts'
import { click } from './click.ts'

/**
 * The Smart Wallet row of the profile and its page (one account per chain, Not Activated until
 * Activate signs and submits its deployment; only for apps with account abstraction on), against the sandbox's account-abstraction
 * service, bundler and local chains. `aaApp` is the seed app with `isAAEnabled` on (the demo app's
 * settings otherwise, sandbox/seed/apps.json); the demo app keeps it off.
 */
const aaApp = 'smart'

const chain = createPublicClient({ transport: http(`${providerUrl}/rpc/31337`) })

/** The demo page with its kit replaced by one for `appId`; a new user signs up in its connect modal. Returns the address. */
async function signUpFor(page: Page, request: APIRequestContext, appId: string): Promise<`0x${string}`> {
  await page.goto('/demo/')
  await page.evaluate((appId) => {
    window.WalletKit!.kit!.destroy()
    return window.WalletKit!.createWalletKit({ appId, env: 'production' }).open('connect')
  }, appId)
  await logInInFrame(page, request)
  const [address] = (await page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_accounts' }))) as `0x${string}`[]
  return address!
}

/** Requests to `pattern` wait while `hold` is set; the first `pass` of them go through at once. */
async function gate(page: Page, pattern: string) {
  let held: Promise<void> | null = null
  let release = () => {}
  let pass = 0
  await page.route(pattern, async (route) => {
    if (pass > 0) pass--
    else await held
    await route.continue()
  })
  return {
    hold(letThrough = 0) {
      pass = letThrough
      held = new Promise<void>((resolve) => (release = resolve))
    },
    release() {
      held = null
      release()
    },
  }
}

test('an app without account abstraction has no Smart Wallet row', async ({ page, request }) => {
  await signUp(page, request)
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await expect(frame.getByTestId('profile-address')).toBeVisible()
  await expect(frame.getByRole('button', { name: 'Smart Wallet' })).toHaveCount(0)
})

test('Smart Wallet: one account per chain, Not Activated; Activate signs and submits, Activating... then Activating, then Activated and deployed on chain', async ({
  page,
  request,
}) => {
  await signUpFor(page, request, aaApp)
  const submit = await gate(page, `${providerUrl}/api/v1/userOp/submit`)
  const accounts = await gate(page, `${providerUrl}/api/v1/smart-account`)

  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await expect(frame.getByRole('button', { name: 'Smart Wallet' })).toBeVisible()
  await snap(page, 'smart-wallet-row')

  await click(frame.getByRole('button', { name: 'Smart Wallet' }))
  await expect(frame.getByRole('heading', { name: 'Smart Wallet' })).toBeVisible()
  const list = frame.getByRole('list', { name: 'Smart Wallet' })
  await expect(list.getByRole('listitem')).toHaveCount(2)
  const local1 = list.getByRole('listitem').filter({ hasText: 'Local Chain 1' })
  const local2 = list.getByRole('listitem').filter({ hasText: 'Local Chain 2' })
  await expect(local1.getByTestId('smart-account-status')).toHaveText('Not Activated')
  await expect(local2.getByTestId('smart-account-status')).toHaveText('Not Activated')
  const aaAddress = (await local1.locator('.wk-address').getAttribute('title')) as `0x${string}`
  expect(aaAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
  expect(await chain.getCode({ address: aaAddress })).toBeUndefined()
  await snap(page, 'smart-wallet-not-activated')

  // Held at submit: the button says what is going on.
  submit.hold()
  await click(local1.getByRole('button', { name: 'Activate' }))
  await expect(local1.getByRole('button', { name: 'Activating...' })).toBeDisabled()
  await snap(page, 'smart-wallet-activating-pending')

  // The refresh right after submit answers 'deploying'; the polls after it wait until the screenshot is taken.
  accounts.hold(1)
  submit.release()
  await expect(local1.getByTestId('smart-account-status')).toHaveText('Activating')
  await expect(local1.getByRole('button', { name: /Activat/ })).toHaveCount(0)
  await snap(page, 'smart-wallet-activating')
  accounts.release()

  await expect(local1.getByTestId('smart-account-status')).toHaveText('Activated', { timeout: 15_000 })
  await expect(local2.getByTestId('smart-account-status')).toHaveText('Not Activated')
  expect(await chain.getCode({ address: aaAddress })).toMatch(/^0x[0-9a-f]+$/)
  await snap(page, 'smart-wallet-activated')
})

test('a failed activation is shown on its row, and Activate stays to try again', async ({ page, request }) => {
  await signUpFor(page, request, aaApp)
  await page.route(
    `${providerUrl}/api/v1/userOp/submit`,
    (route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"Bundler unavailable"}' }),
    {
      times: 1,
    },
  )
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await click(frame.getByRole('button', { name: 'Smart Wallet' }))
  const local2 = frame.getByRole('listitem').filter({ hasText: 'Local Chain 2' })
  await click(local2.getByRole('button', { name: 'Activate' }))
  await expect(local2.getByRole('alert')).not.toBeEmpty()
  await expect(local2.getByRole('button', { name: 'Activate' })).toBeEnabled()
  await expect(local2.getByTestId('smart-account-status')).toHaveText('Not Activated')
  await snap(page, 'smart-wallet-error')

  await click(local2.getByRole('button', { name: 'Activate' }))
  await expect(local2.getByTestId('smart-account-status')).toHaveText(/^(Activating|Activated)$/)
  // An empty error line is not shown (nor in the accessibility tree).
  await expect(local2.getByRole('alert')).toHaveCount(0)
  await expect(local2.getByTestId('smart-account-status')).toHaveText('Activated', { timeout: 15_000 })
})

test("'Use on this site': the host sees the smart account; its signature verifies (ERC-6492), a send is one sponsored operation, wallet_sendCalls lands two calls atomically; back to the Personal Wallet", async ({
  page,
  request,
}) => {
  const owner = await signUpFor(page, request, aaApp)
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await click(frame.getByRole('button', { name: 'Smart Wallet' }))
  await expect(frame.getByRole('button', { name: 'Use on this site' })).toBeVisible()
  const aaAddress = (await frame.getByRole('listitem').first().locator('.wk-address').getAttribute('title')) as `0x${string}`
  const changed = page.evaluate(() => new Promise<unknown>((resolve) => window.WalletKit!.kit!.provider.on('accountsChanged', resolve)))
  await click(frame.getByRole('button', { name: 'Use on this site' }))
  expect(await changed).toEqual([aaAddress])
  await expect(frame.getByRole('button', { name: 'Use Personal Wallet' })).toBeVisible()
  await snap(page, 'smart-wallet-in-use')
  expect(await page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_accounts' }))).toEqual([aaAddress])
  const capabilities = (await startRequest(page, 'wallet_getCapabilities', [aaAddress, ['0x7a69']])).result
  expect(capabilities).toEqual({ '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: true } } })
  await page.evaluate(() => window.WalletKit!.kit!.close())

  // personal_sign: an ERC-1271 signature, ERC-6492-wrapped while the account is not deployed.
  const signing = startRequest(page, 'personal_sign', ['0x68656c6c6f', aaAddress])
  await confirmSignature(page)
  const signature = (await signing).result as `0x${string}`
  expect(await chain.verifyMessage({ address: aaAddress, message: 'hello', signature })).toBe(true)
  expect(await chain.verifyMessage({ address: owner, message: 'hello', signature })).toBe(false)

  // eth_sendTransaction: one sponsored user operation; the hash answered is its transaction's.
  const receiver = '0x000000000000000000000000000000000000dEaD'
  const sending = startRequest(page, 'eth_sendTransaction', [{ from: aaAddress, to: receiver, value: '0x0' }])
  await expect(frame.getByTestId('confirm-fee')).toHaveText('Paid by the app (sponsored)')
  await snap(page, 'smart-wallet-confirm-sponsored')
  await confirmRequest(page)
  const sent = await sending
  expect(sent.result).toMatch(/^0x[0-9a-f]{64}$/)
  expect((await chain.getTransactionReceipt({ hash: sent.result as `0x${string}` })).status).toBe('success')
  expect(await chain.getCode({ address: aaAddress })).toMatch(/^0x[0-9a-f]+$/)
  expect(await chain.getBalance({ address: aaAddress })).toBe(0n)

  // wallet_sendCalls: two approvals in one operation, one confirmation listing both.
  const token = '0x8464135c8F25Da09e49BC8782676a84730C318bC' // DemoToken (sandbox/README.md)
  const [a, b] = ['0x1111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222'] as const
  const approve = (spender: `0x${string}`, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
  // viem's own EIP-5792 actions, in this test's process, over the page's kit provider.
  const viemWallet = createWalletClient({
    account: aaAddress,
    chain: {
      id: 31337,
      name: 'Local Chain 1',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [`${providerUrl}/rpc/31337`] } },
    },
    transport: custom({
      request: ({ method, params }) =>
        page.evaluate(({ method, params }) => window.WalletKit!.kit!.provider.request({ method, params } as never), { method, params: params as never }),
    }),
  })
  const batch = viemWallet.sendCalls({
    forceAtomic: true,
    calls: [
      { to: token, data: approve(a, 1n) },
      { to: token, data: approve(b, 2n) },
    ],
  })
  await expect(frame.getByTestId('confirm-call-1')).toContainText('+ data')
  await expect(frame.getByTestId('confirm-call-2')).toBeVisible()
  // Each call's data is shown in full, as a single transaction's is.
  await expect(frame.getByTestId('confirm-call-data-1')).toHaveText(approve(a, 1n))
  await expect(frame.getByTestId('confirm-call-data-2')).toHaveText(approve(b, 2n))
  await expect(frame.getByTestId('confirm-fee')).toHaveText('Paid by the app (sponsored)')
  await snap(page, 'smart-wallet-confirm-batch')
  await confirmRequest(page)
  const { id } = await batch
  const status = await viemWallet.waitForCallsStatus({ id, pollingInterval: 250, timeout: 15_000 })
  expect(status).toMatchObject({ status: 'success', atomic: true })
  expect(status.receipts).toHaveLength(1)
  expect(status.receipts![0]!.status).toBe('success')
  const allowance = (spender: `0x${string}`) => chain.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [aaAddress, spender] })
  expect([await allowance(a), await allowance(b)]).toEqual([1n, 2n])
  // wallet_showCallsStatus: the batch in the modal.
  expect((await startRequest(page, 'wallet_showCallsStatus', [id])).result).toBeNull()
  await expect(frame.getByRole('heading', { name: 'Transaction Status' })).toBeVisible()
  await expect(frame.getByTestId('calls-status-code')).toHaveText('Confirmed')
  await expect(frame.getByTestId('calls-status')).toContainText('All calls in one operation')
  await snap(page, 'smart-wallet-calls-status')
  await click(frame.getByRole('button', { name: 'Back' }))

  // Back to the Personal Wallet: the host sees the owner again.
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  await click(frame.getByRole('button', { name: 'Smart Wallet' }))
  const back = page.evaluate(() => new Promise<unknown>((resolve) => window.WalletKit!.kit!.provider.on('accountsChanged', resolve)))
  await click(frame.getByRole('button', { name: 'Use Personal Wallet' }))
  expect(await back).toEqual([owner])
})
