import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { signUp, startRequest } from './flows.ts'
import { frameOf, otherDemoOrigin, pressConfirm, snap } from './helpers.ts'
import { click } from './click.ts'

/**
 * Another allowed origin of app "demo" (the app allows http://127.0.0.1:*): the demo page served on
 * the next port (scripts/start.ts). Same top-level site as the demo, so the same storage partition
 * and the same signed-in session in the wallet frame.
 */
const otherOrigin = otherDemoOrigin

async function openOther(context: BrowserContext): Promise<Page> {
  const page = await context.newPage()
  await page.goto(`${otherOrigin}/demo/`)
  // Account events the page hears, in order.
  await page.evaluate(() => {
    const seen: unknown[] = []
    ;(window as unknown as { seen: unknown[] }).seen = seen
    window.WalletKit!.kit!.provider.on('accountsChanged', (accounts: never) => void seen.push(accounts))
  })
  return page
}
const heard = (page: Page) => page.evaluate(() => (window as unknown as { seen: unknown[] }).seen)

test('a second site of the app gets no account until the user connects it there; revoking forgets that site only', async ({ page, request }) => {
  const address = await signUp(page, request)
  // The page the user signed in on is connected with the login: no extra click.
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [address] })

  const other = await openOther(page.context())
  expect(await startRequest(other, 'eth_accounts')).toEqual({ result: [] })
  expect(await startRequest(other, 'wallet_getPermissions')).toEqual({ result: [] })
  expect(await startRequest(other, 'personal_sign', ['0x68656c6c6f', address])).toMatchObject({ code: 4100 })
  expect(await startRequest(other, 'eth_sendTransaction', [{ from: address, to: address, value: '0x1' }])).toMatchObject({ code: 4100 })
  // Its disconnect does not log the user out of the demo.
  await other.evaluate(() => window.WalletKit!.kit!.disconnect())
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [address] })

  // eth_requestAccounts asks, naming the origin the frame checked. Cancel: 4001.
  const cancelled = startRequest(other, 'eth_requestAccounts')
  const frame = frameOf(other)
  await expect(frame.getByRole('heading', { name: `Connect to ${otherOrigin}?` })).toBeVisible()
  await expect(frame.getByTestId('connect-site-address')).toHaveText(address)
  // A click the page timed (the pointer just came into the frame) is not taken.
  await click(frame.getByRole('button', { name: 'Connect', exact: true }), { force: true })
  expect(await startRequest(other, 'eth_accounts')).toEqual({ result: [] })
  await click(frame.getByRole('button', { name: 'Cancel' }))
  expect(await cancelled).toMatchObject({ code: 4001 })
  expect(await startRequest(other, 'eth_accounts')).toEqual({ result: [] })

  // Asked again: Connect gives the account.
  const granted = startRequest(other, 'eth_requestAccounts')
  await expect(frame.getByRole('heading', { name: `Connect to ${otherOrigin}?` })).toBeVisible()
  await snap(other, 'site-connect-prompt')
  await pressConfirm(frame.getByRole('button', { name: 'Connect', exact: true }))
  expect(await granted).toEqual({ result: [address] })
  await expect(other.getByTestId('wallet-kit-frame')).toBeHidden()
  expect(await startRequest(other, 'wallet_getPermissions')).toMatchObject({ result: [{ parentCapability: 'eth_accounts', invoker: otherOrigin }] })
  expect(await heard(other)).toEqual([[address]])

  // Kept across a reload, with the session.
  await other.reload()
  expect(await startRequest(other, 'eth_accounts')).toEqual({ result: [address] })

  // EIP-2255 revoke: this site is forgotten, the demo stays connected and signed in.
  await other.evaluate(() => {
    const seen: unknown[] = []
    ;(window as unknown as { seen: unknown[] }).seen = seen
    window.WalletKit!.kit!.provider.on('accountsChanged', (accounts: never) => void seen.push(accounts))
  })
  expect(await startRequest(other, 'wallet_revokePermissions', [{ eth_accounts: {} }])).toEqual({ result: null })
  expect(await heard(other)).toEqual([[]])
  expect(await startRequest(other, 'eth_accounts')).toEqual({ result: [] })
  expect(await startRequest(other, 'personal_sign', ['0x68656c6c6f', address])).toMatchObject({ code: 4100 })
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [address] })
})

test('a connection granted in one tab is seen by the other tabs of that origin, and a logout forgets every site', async ({ page, request }) => {
  const address = await signUp(page, request)
  const first = await openOther(page.context())
  const second = await openOther(page.context())
  expect(await startRequest(second, 'eth_accounts')).toEqual({ result: [] })

  const granted = startRequest(first, 'eth_requestAccounts')
  await pressConfirm(frameOf(first).getByRole('button', { name: 'Connect', exact: true }))
  expect(await granted).toEqual({ result: [address] })
  await expect.poll(() => heard(second)).toEqual([[address]])
  expect(await startRequest(second, 'eth_accounts')).toEqual({ result: [address] })

  // Logged out on the demo (its own Disconnect): every site is forgotten; a new login connects only the demo.
  await page.evaluate(() => window.WalletKit!.kit!.disconnect())
  await expect.poll(() => heard(second)).toEqual([[address], []])
  const again = await signUp(page, request)
  expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [again] })
  await expect.poll(() => startRequest(second, 'eth_accounts')).toEqual({ result: [] })
  expect(await heard(second)).toEqual([[address], []])
})
