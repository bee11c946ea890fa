import { expect, test, type Page } from '@playwright/test'
import { signUp, startRequest } from './flows.ts'
import { storedSession } from './bridge-recorder.ts'
import { frameOf, pressConfirm, providerUrl } from './helpers.ts'
import { click } from './click.ts'

/** A wallet-service call with a wallet token, as the widget makes it. */
const addressWith = (page: Page, token: string) =>
  page.request.post(`${providerUrl}/api/v2/wallet/address`, {
    headers: { origin: providerUrl, 'x-app-id': 'demo', 'x-environment': 'production', authorization: `Bearer ${token}` },
    data: { network: 'local-1' },
  })

test("the profile's Disconnect Wallet revokes the session on the service: a copy of its tokens is refused", async ({ page, request }) => {
  await signUp(page, request)
  const session = (await storedSession(page))!
  expect((await addressWith(page, session.token)).status()).toBe(200)
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  await click(frameOf(page).getByRole('button', { name: 'Disconnect Wallet' }))
  await expect(page.getByTestId('account')).toHaveText('—')
  const refused = await addressWith(page, session.token)
  expect(refused.status()).toBe(401)
  expect(await refused.json()).toMatchObject({ message: 'Session revoked' })
  expect(await storedSession(page)).toBeUndefined()
})

test('wallet_revokePermissions forgets this site only (EIP-2255; issue 21); kit.disconnect() revokes the session', async ({ page, request }) => {
  const address = await signUp(page, request)
  const first = (await storedSession(page))!
  expect(await startRequest(page, 'wallet_revokePermissions', [{ eth_accounts: {} }])).toEqual({ result: null })
  await expect(page.getByTestId('account')).toHaveText('—')
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
  // The session stays for the other sites the user connected: its tokens still work, and this site
  // gets the account again once the user connects it ('Connect to <origin>?', e2e/site-connect.spec.ts).
  expect((await addressWith(page, first.token)).status()).toBe(200)
  const again = startRequest(page, 'eth_requestAccounts')
  await pressConfirm(frameOf(page).getByRole('button', { name: 'Connect', exact: true }))
  expect(await again).toEqual({ result: [address] })

  const second = (await storedSession(page))!
  await page.evaluate(() => window.WalletKit!.kit!.disconnect())
  expect((await addressWith(page, second.token)).status()).toBe(401)
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
})

test('with the service unreachable, Disconnect still ends the session in the browser', async ({ page, request }) => {
  await signUp(page, request)
  await page.route(`${providerUrl}/api/v2/wallet/logout`, (route) => route.abort('internetdisconnected'))
  await page.evaluate(() => window.WalletKit!.kit!.disconnect())
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
  expect(await storedSession(page)).toBeUndefined()
  await page.reload()
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
})
