import { expect, test, type Request } from '@playwright/test'
import { appConfigElementId } from '../sdk/app-config.ts'
import { signUp, startRequest } from './flows.ts'
import { confirmRequest, frameOf, providerUrl } from './helpers.ts'
import { click } from './click.ts'

// Rules only a real browser shows: the demo page runs in the production environment (its script
// tag says data-env="production", and the wallet frame and its service calls follow), and the
// Receive page's QR code is 350 px square; with the wallet's signing permission off, reads and
// the wallet service's gas estimate still answer, with no modal.

test('the demo page runs in production: the frame and every service call it makes say so, and sign-up connects', async ({ page, request }) => {
  const calls: Promise<{ path: string; env: string | null }>[] = []
  page.context().on('request', (r: Request) => {
    const url = new URL(r.url())
    if (url.origin === providerUrl && url.pathname.startsWith('/api/')) calls.push(r.headerValue('x-environment').then((env) => ({ path: url.pathname, env })))
  })
  const address = await signUp(page, request)
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)

  const src = new URL((await page.getByTestId('wallet-kit-frame').getAttribute('src'))!)
  expect(src.searchParams.get('env')).toBe('production')
  expect(src.searchParams.get('appId')).toBe('demo')

  const seen = await Promise.all(calls)
  // The e-mail sign-in went out, and nothing asked for the sandbox data set.
  expect(seen.map((c) => c.path)).toEqual(expect.arrayContaining(['/api/v2/auth/login-otp', '/api/v2/auth/verify-otp']))
  for (const call of seen) expect(call, call.path).toMatchObject({ env: 'production' })
  // The app config came with the frame's page: the production one.
  const widget = page.frames().find((f) => f.url().startsWith(`${providerUrl}/widget/`))!
  expect(await widget.evaluate((id) => JSON.parse(document.getElementById(id)!.textContent!).environment, appConfigElementId)).toBe('production')
  expect(await page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_accounts' }))).toEqual([address])
})

test("the Receive page's QR code is 350 by 350 px on a desktop", async ({ page, request }) => {
  const address = await signUp(page, request)
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await click(frame.getByRole('button', { name: 'Receive' }))
  const qr = frame.getByRole('img', { name: `QR code of ${address}` })
  await expect(qr.locator('svg')).toBeVisible()
  const box = (await qr.boundingBox())!
  expect({ width: Math.round(box.width), height: Math.round(box.height) }).toEqual({ width: 350, height: 350 })
})

test('signing permission off: after the need-permission modal, reads and estimate-gas still answer and open nothing', async ({ page, request }) => {
  const address = await signUp(page, request)
  const off = await request.post(`${providerUrl}/dev/api/wallets/${address}/permission`, { data: { granted: false } })
  expect(off.ok()).toBe(true)
  // The wallet learns it from the service's refusal of a signature.
  const refused = startRequest(page, 'personal_sign', ['0x6869', address])
  await confirmRequest(page)
  expect(await refused).toMatchObject({ code: 4100 })
  const frame = frameOf(page)
  await expect(frame.getByRole('heading', { name: 'Permission needed' })).toBeVisible()
  await click(frame.getByRole('button', { name: 'Close' }))
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()

  const to = '0x000000000000000000000000000000000000bEEF'
  expect(await startRequest(page, 'eth_estimateGas', [{ from: address, to, value: '0x1' }])).toEqual({ result: expect.stringMatching(/^0x[0-9a-f]+$/) })
  expect(await startRequest(page, 'eth_getBalance', [address, 'latest'])).toEqual({ result: expect.stringMatching(/^0x[0-9a-f]+$/) })
  expect(await startRequest(page, 'eth_blockNumber')).toEqual({ result: expect.stringMatching(/^0x[0-9a-f]+$/) })
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
})
