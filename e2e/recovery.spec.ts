import { readFileSync } from 'node:fs'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { axeViolations } from './axe.ts'
import { hostMessages, recorder, storedSession } from './bridge-recorder.ts'
import { startRequest } from './flows.ts'
import { accounts, confirmRequest, frameOf, latestCode, openConnect, providerUrl, settled, snap, uniqueEmail } from './helpers.ts'
import { click } from './click.ts'

/**
 * The profile's recovery page against the real sandbox: the file the wallet offered at creation
 * restores it (same address, a new session that signs); a damaged file, another wallet's file and
 * a dropped network each say so and change nothing; the secret and the tokens never reach the
 * host page, and a huge file does not hold the frame.
 */

const recoverPath = `${providerUrl}/api/v2/account/recover`

type SignedUp = { address: `0x${string}`; secret0: string; file: string }

/** Signs a new user up through the demo page, downloading the recovery file on the wallet-created page. */
async function signUpWithFile(page: Page, request: APIRequestContext): Promise<SignedUp> {
  // Awaited, not read in an event handler: the body is there before the assertion reads it.
  const created = page.waitForResponse(`${providerUrl}/api/v2/account/create`)
  await page.goto('/demo/')
  await openConnect(page)
  const frame = frameOf(page)
  const email = uniqueEmail()
  await frame.getByPlaceholder('Enter your email').fill(email)
  await click(frame.getByRole('button', { name: 'Continue', exact: true }))
  await frame.getByLabel('Verification code').fill(await latestCode(request, email))
  await expect(frame.getByRole('heading', { name: 'Wallet Created Successfully!' })).toBeVisible()
  const [download] = await Promise.all([page.waitForEvent('download'), click(frame.getByRole('button', { name: 'Download' }))])
  expect(download.suggestedFilename()).toBe('wallet-recovery-secret.walletkit')
  const file = test.info().outputPath(`${email}-${download.suggestedFilename()}`)
  await download.saveAs(file)
  await click(frame.getByRole('button', { name: 'Done' }))
  await expect(page.getByTestId('account')).toHaveText(/^0x[0-9a-fA-F]{40}$/)
  const secret0 = readFileSync(file, 'utf8')
  expect(secret0).toBe(((await (await created).json()) as { data: { secret0: string } }).data.secret0)
  return { address: (await page.getByTestId('account').textContent()) as `0x${string}`, secret0, file }
}

/** Another user's wallet, made through the HTTP API as the frame would: its recovery secret. */
async function anotherWalletSecret(request: APIRequestContext): Promise<string> {
  const headers = { origin: providerUrl, 'x-app-id': 'demo', 'x-environment': 'production' }
  const email = uniqueEmail()
  const sent = await request.post(`${providerUrl}/api/v2/auth/login-otp`, { headers, form: { email } })
  const { verificationToken } = ((await sent.json()) as { data: { verificationToken: string } }).data
  const verified = await request.post(`${providerUrl}/api/v2/auth/verify-otp`, { headers, data: { verificationToken, otp: await latestCode(request, email) } })
  const { accessToken } = ((await verified.json()) as { data: { accessToken: string } }).data
  const created = await request.post(`${providerUrl}/api/v2/account/create`, { headers: { ...headers, authorization: `Bearer ${accessToken}` }, data: {} })
  return ((await created.json()) as { data: { secret0: string } }).data.secret0
}

/** Opens the profile from the host page and goes to the recovery page as a person does (its code loaded). */
async function openRecovery(page: Page, shot?: string) {
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  const row = frame.getByRole('button', { name: 'Restore from recovery file' })
  await expect(row).toBeVisible()
  if (shot) await snap(page, shot)
  await click(row)
  await expect(frame.getByRole('heading', { name: 'Restore from recovery file' })).toBeVisible()
  await expect(frame.getByText('Choose the recovery file')).toBeVisible()
  return frame
}

/** Every call the frame makes to account/recover, counted from now. */
function recoverCalls(page: Page): string[] {
  const calls: string[] = []
  page.on('request', (r) => {
    if (r.url() === recoverPath) calls.push(r.postData() ?? '')
  })
  return calls
}

test('the downloaded file restores the wallet: same address, a new session that signs; a damaged file is refused first; nothing reaches the host', async ({
  page,
  request,
}) => {
  await page.addInitScript(recorder)
  const user = await signUpWithFile(page, request)
  const before = await storedSession(page)
  const calls = recoverCalls(page)
  const recovered = page.waitForResponse((r) => r.url() === recoverPath && r.ok())
  const frame = await openRecovery(page, 'profile-home-recovery-row')
  await snap(page, 'profile-recovery')

  // Damaged: cut short by one character. Refused in the frame, before any call.
  await frame
    .locator('input[type=file]')
    .setInputFiles({ name: 'wallet-recovery-secret.walletkit', mimeType: '', buffer: Buffer.from(user.secret0.slice(0, -1)) })
  await expect(frame.getByRole('alert')).toHaveText('This file holds no recovery secret: it may be damaged.')
  await expect(frame.getByRole('button', { name: 'Restore' })).toBeDisabled()
  await snap(page, 'profile-recovery-damaged')
  expect(calls).toEqual([])
  // The page with its error line, as assistive tech meets it: no serious or critical axe violation.
  await settled(page)
  const violations = await axeViolations(page, '[data-testid=wallet-kit-frame]')
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])

  await frame.locator('input[type=file]').setInputFiles(user.file)
  await expect(frame.getByText('Recovery file: ')).toContainText('.walletkit')
  await click(frame.getByRole('button', { name: 'Restore' }))
  await expect(frame.getByText('Access restored: this wallet is ready on this device.')).toBeVisible()
  await expect(frame.getByTestId('recovery-done')).toContainText(user.address)
  await snap(page, 'profile-recovery-done')
  expect(calls).toEqual([new URLSearchParams({ secret0: user.secret0 }).toString()])

  const answered = ((await (await recovered).json()) as { data: { walletToken: string; refreshToken: string } }).data
  // The frame keeps the new session (stored for the next visit); the host sees the same account.
  await expect.poll(async () => (await storedSession(page)).token).toBe(answered.walletToken)
  expect((await storedSession(page)).refreshToken).toBe(answered.refreshToken)
  expect(answered.walletToken).not.toBe(before.token)
  expect(await accounts(page)).toEqual([user.address])
  await click(frame.getByRole('button', { name: 'Done' }))
  await expect(frame.getByTestId('profile-address')).toBeVisible()
  await click(frame.getByRole('button', { name: 'Close' }))

  // The restored session signs.
  const signing = startRequest(page, 'personal_sign', ['0x6869', user.address])
  await confirmRequest(page)
  expect((await signing).result).toMatch(/^0x[0-9a-f]{130}$/)

  const log = await hostMessages(page)
  expect(log.some((m) => m.includes(user.address))).toBe(true) // the recorder saw the bridge's traffic
  for (const secret of [user.secret0, user.secret0.slice(2), before.token, before.refreshToken, answered.walletToken, answered.refreshToken])
    expect(log.filter((m) => m.includes(secret))).toEqual([])
})

test("another wallet's file: the service's refusal in plain words; no network: said so; the session stays as it was", async ({ page, request }) => {
  await page.addInitScript(recorder)
  const [user, other] = await Promise.all([signUpWithFile(page, request), anotherWalletSecret(request)])
  const before = await storedSession(page)
  const frame = await openRecovery(page)

  // From the keyboard: the file chooser takes the focus and its zone shows the ring.
  await frame.getByLabel('Or paste the recovery secret').focus()
  await page.keyboard.press('Shift+Tab')
  await expect(frame.locator('input[type=file]')).toBeFocused()
  await snap(page, 'profile-recovery-keyboard')

  // A name as long as a file system allows wraps inside the dialog.
  const otherFile = { name: `${'wallet-recovery-secret-of-another-wallet-'.repeat(5)}.walletkit`, mimeType: '', buffer: Buffer.from(other) }
  await frame.locator('input[type=file]').setInputFiles(otherFile)
  const answer = page.waitForResponse(recoverPath)
  await click(frame.getByRole('button', { name: 'Restore' }))
  expect(((await (await answer).json()) as { message: string }).message).toBe('Recovery secret does not match this wallet')
  await expect(frame.getByRole('alert')).toHaveText('This recovery file belongs to another wallet, or it is damaged. Nothing was changed.')
  await snap(page, 'profile-recovery-other-wallet')
  expect(await storedSession(page)).toMatchObject({ token: before.token, refreshToken: before.refreshToken })

  // The network drops the call: said so; the session is the one it was.
  await page.route(recoverPath, (route) => route.abort('internetdisconnected'))
  await frame.locator('input[type=file]').setInputFiles(user.file)
  await click(frame.getByRole('button', { name: 'Restore' }))
  await expect(frame.getByRole('alert')).toHaveText('The wallet service could not be reached. Check your connection and try again. Nothing was changed.')
  expect(await storedSession(page)).toMatchObject({ token: before.token, refreshToken: before.refreshToken })
  expect(await accounts(page)).toEqual([user.address])

  const log = await hostMessages(page)
  for (const secret of [user.secret0.slice(2), other.slice(2)]) expect(log.filter((m) => m.includes(secret))).toEqual([])
})

test('red team: a huge file is refused unread and the frame keeps answering; the host page cannot open the recovery page', async ({ page, request }) => {
  const user = await signUpWithFile(page, request)
  const calls = recoverCalls(page)
  // The host page asks for pages it has no way to name: the bridge refuses them, nothing opens.
  for (const view of ['recovery', 'profile/recovery'])
    await expect(page.evaluate((v) => window.WalletKit!.kit!.open(v as 'profile'), view)).rejects.toThrow(/unknown view/)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()

  const frame = await openRecovery(page)
  // 40 MB under the recovery file's name (a wrong pick, or a page's trick): its size alone refuses it.
  const huge = Buffer.alloc(40 * 1024 * 1024, `${user.secret0}\n`)
  await frame.locator('input[type=file]').setInputFiles({ name: 'wallet-recovery-secret.walletkit', mimeType: '', buffer: huge })
  await expect(frame.getByRole('alert')).toHaveText('This file is too large to be a recovery file.')
  expect(await page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_chainId' }))).toBe('0x7a69')
  // A picture is not a recovery file either, whatever it holds.
  await frame.locator('input[type=file]').setInputFiles({ name: 'secret.png', mimeType: 'image/png', buffer: Buffer.from(user.secret0) })
  await expect(frame.getByRole('alert')).toHaveText('This is not a recovery file. Choose the wallet-recovery-secret file you downloaded.')
  expect(calls).toEqual([])
})
