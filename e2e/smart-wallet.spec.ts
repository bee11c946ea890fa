import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { createPublicClient, http } from 'viem'
import { signUp } from './flows.ts'
import { frameOf, logInInFrame, providerUrl, snap } from './helpers.ts'

/**
 * The Smart Wallet row and page (SPEC.md sections 2 to 4), against the sandbox's account-abstraction
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

  await frame.getByRole('button', { name: 'Smart Wallet' }).click()
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
  await local1.getByRole('button', { name: 'Activate' }).click()
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
  await frame.getByRole('button', { name: 'Smart Wallet' }).click()
  const local2 = frame.getByRole('listitem').filter({ hasText: 'Local Chain 2' })
  await local2.getByRole('button', { name: 'Activate' }).click()
  await expect(local2.getByRole('alert')).not.toBeEmpty()
  await expect(local2.getByRole('button', { name: 'Activate' })).toBeEnabled()
  await expect(local2.getByTestId('smart-account-status')).toHaveText('Not Activated')
  await snap(page, 'smart-wallet-error')

  await local2.getByRole('button', { name: 'Activate' }).click()
  await expect(local2.getByTestId('smart-account-status')).toHaveText(/^(Activating|Activated)$/)
  // An empty error line is not shown (nor in the accessibility tree).
  await expect(local2.getByRole('alert')).toHaveCount(0)
  await expect(local2.getByTestId('smart-account-status')).toHaveText('Activated', { timeout: 15_000 })
})
