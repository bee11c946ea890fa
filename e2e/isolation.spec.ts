import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { signUp, startRequest } from './flows.ts'
import { confirmRequest, demoOrigin, frameOf, providerUrl } from './helpers.ts'
import { recorder, storedSession } from './bridge-recorder.ts'
import { click } from './click.ts'

/**
 * Our edge: tokens, the session and the recovery secret stay in the provider's frame. The recorder
 * (bridge-recorder.ts) records every message the host page receives through a login, a signature
 * and a reload; the tests then look for the real secrets in it.
 */
/** What must never reach the host page: the session's tokens and the recovery secret. */
type Secrets = { address: `0x${string}`; token: string; refreshToken: string; secret0: string }

/** Records the host's messages from the start, signs a new user up; answers the secrets to look for. */
async function signUpRecorded(page: Page, request: APIRequestContext): Promise<Secrets> {
  await page.addInitScript(recorder)
  // Awaited, not read in an event handler: the body is there before the assertion reads it.
  const created = page.waitForResponse(`${providerUrl}/api/v2/account/create`)
  const address = await signUp(page, request)
  const { secret0 } = ((await (await created).json()) as { data: { secret0: string } }).data
  const session = await storedSession(page)
  expect(session.token).toMatch(/^eyJ/)
  expect(secret0.length).toBeGreaterThan(16)
  return { address, ...session, secret0 }
}

/** Neither the messages the host page received nor its own storage hold any secret, or any JWT. */
async function expectNothingLeaked(page: Page, { address, token, refreshToken, secret0 }: Secrets) {
  const log = await page.evaluate(() => (window as unknown as { bridgeLog: string[] }).bridgeLog)
  expect(log.length).toBeGreaterThan(10)
  expect(log.some((m) => m.includes(address))).toBe(true) // the recorder did see the bridge traffic
  for (const secret of [token, refreshToken, secret0]) expect(log.filter((m) => m.includes(secret))).toEqual([])
  expect(log.filter((m) => /eyJ[\w-]{10,}\.[\w-]{10,}/.test(m))).toEqual([]) // no JWT of any kind
  expect(log.filter((m) => /bearer|authorization|x-client-secret/i.test(m))).toEqual([])

  const hostStorage = await page.evaluate(() => JSON.stringify({ cookie: document.cookie, local: { ...localStorage }, session: { ...sessionStorage } }))
  for (const secret of [token, refreshToken, secret0]) expect(hostStorage).not.toContain(secret)
}

/** A provider request whose failure is kept whole: class, code and message, as the host page sees it. */
function request(page: Page, method: string, params: unknown[]) {
  return page.evaluate(
    ({ method, params }) =>
      window.WalletKit!.kit!.provider.request({ method, params }).then(
        (result) => ({ result }),
        (e: unknown) => {
          const error = e as { code?: unknown; message?: unknown; data?: unknown }
          return { isError: e instanceof Error, code: error.code, message: error.message, data: error.data }
        },
      ),
    { method, params },
  )
}

/** A proper EIP-1193 error: an Error with this code and a message (EIP-1193's ProviderRpcError). */
const providerError = (code: number, message: RegExp) => ({ isError: true, code, message: expect.stringMatching(message), data: undefined })

/** The confirmation's own Close, shown after a failure (the header's × is named Close too). */
const closeAfterFailure = (page: Page) => click(frameOf(page).getByRole('button', { name: 'Close' }).filter({ hasText: 'Close' }))

test('no token, refresh token or recovery secret ever reaches the host page', async ({ page, request: api }) => {
  const secrets = await signUpRecorded(page, api)
  const signing = startRequest(page, 'personal_sign', ['0x6869', secrets.address])
  await confirmRequest(page)
  expect((await signing).result).toMatch(/^0x/)
  await expectNothingLeaked(page, secrets)
})

test.describe('error paths leak nothing either, and answer a proper EIP-1193 error', () => {
  test('the wallet service fails the signature (500)', async ({ page, request: api }) => {
    const secrets = await signUpRecorded(page, api)
    // The frame's own request, failed on its way back: the body names the token, as a careless
    // server error might; it must not travel on.
    await page.route(`${providerUrl}/api/v2/wallet/sign-message`, (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ status: 500, message: 'Internal Server Error', data: { authorization: route.request().headers().authorization } }),
      }),
    )
    const frame = frameOf(page)
    const signing = request(page, 'personal_sign', ['0x6869', secrets.address])
    await confirmRequest(page)
    await expect(frame.getByRole('alert').filter({ hasText: 'Internal Server Error' })).toBeVisible()
    await closeAfterFailure(page)
    expect(await signing).toEqual(providerError(-32603, /Internal Server Error/))
    await expectNothingLeaked(page, secrets)
  })

  test('the session was revoked elsewhere: 401, and the refresh fails too', async ({ page, request: api }) => {
    const secrets = await signUpRecorded(page, api)
    // Revoked on the service (as a logout in another browser would): both tokens are refused from now on.
    const logout = await api.post(`${providerUrl}/api/v2/wallet/logout`, {
      headers: { origin: providerUrl, 'x-app-id': 'demo', 'x-environment': 'production', authorization: `Bearer ${secrets.token}` },
      data: { refreshToken: secrets.refreshToken },
    })
    expect(logout.status()).toBe(200)
    const refreshes: number[] = []
    page.on('response', (r) => r.url() === `${providerUrl}/api/v2/wallet/refresh` && refreshes.push(r.status()))
    const frame = frameOf(page)
    const signing = request(page, 'personal_sign', ['0x6869', secrets.address])
    await confirmRequest(page)
    await expect(frame.getByRole('alert').filter({ hasText: 'Failed to refresh token' })).toBeVisible()
    expect(refreshes).toEqual([401])
    // The session is over: the host hears it, and the request fails (never a hang).
    await expect(page.getByTestId('account')).toHaveText('—')
    await closeAfterFailure(page)
    expect(await signing).toEqual(providerError(-32603, /Failed to refresh token/))
    expect(await startRequest(page, 'eth_accounts')).toEqual({ result: [] })
    await expectNothingLeaked(page, secrets)
  })

  test('the wallet lost its signing permission (407)', async ({ page, request: api }) => {
    const secrets = await signUpRecorded(page, api)
    // The sandbox's developer switch (sandbox/README.md).
    const taken = await api.post(`${providerUrl}/dev/api/wallets/${secrets.address}/permission`, { data: { granted: false } })
    expect(taken.status()).toBe(200)
    const frame = frameOf(page)
    const signing = request(page, 'personal_sign', ['0x6869', secrets.address])
    await confirmRequest(page)
    expect(await signing).toEqual(providerError(4100, /Permission needed/))
    await expect(frame.getByRole('button', { name: 'Setup Permission' })).toBeVisible()
    await expectNothingLeaked(page, secrets)
  })

  test('the network goes down', async ({ page, context, request: api }) => {
    const secrets = await signUpRecorded(page, api)
    const frame = frameOf(page)
    const signing = request(page, 'personal_sign', ['0x6869', secrets.address])
    await expect(frame.getByRole('button', { name: 'Confirm' })).toBeEnabled()
    await context.setOffline(true)
    try {
      await confirmRequest(page)
      await expect(frame.getByRole('alert').filter({ hasText: 'No response received from server' })).toBeVisible()
      await closeAfterFailure(page)
      expect(await signing).toEqual(providerError(-32603, /No response received from server/))
    } finally {
      await context.setOffline(false)
    }
    await expectNothingLeaked(page, secrets)
  })
})

test("the wallet frame's CSP: the kit runs under it, and the frame reaches no other origin", async ({ page, request: api }) => {
  // In every frame; only the wallet frame keeps what it sees.
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`))
  })
  const address = await signUp(page, api)
  const signing = startRequest(page, 'personal_sign', ['0x6869', address])
  await confirmRequest(page)
  expect((await signing).result).toMatch(/^0x/)
  expect(await startRequest(page, 'eth_blockNumber')).toMatchObject({ result: expect.stringMatching(/^0x/) })

  const widget = page.frames().find((f) => f.url().startsWith(`${providerUrl}/widget/`))!
  const violations = () => widget.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)
  expect(await violations()).toEqual([])

  // Code running in the frame cannot send anything to another origin, not even a no-cors request
  // or an image, nor run an injected inline script.
  const foreign = `${demoOrigin}/demo/`
  const attempt = await widget.evaluate(async (url) => {
    const fetched = await fetch(`${url}?stolen=1`, { mode: 'no-cors' }).then(
      () => 'sent',
      () => 'blocked',
    )
    const image = await new Promise<string>((resolve) => {
      const img = new Image()
      img.onload = () => resolve('sent')
      img.onerror = () => resolve('blocked')
      img.src = `${url}pixel.png?stolen=1`
    })
    const script = document.createElement('script')
    script.textContent = 'window.injected = true'
    document.body.append(script)
    return { fetched, image, injected: (window as unknown as { injected?: boolean }).injected ?? false }
  }, foreign)
  expect(attempt).toEqual({ fetched: 'blocked', image: 'blocked', injected: false })
  await expect.poll(violations).toEqual([`connect-src ${foreign}?stolen=1`, `img-src ${foreign}pixel.png?stolen=1`, 'script-src-elem inline'])
})
