import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { createPublicClient, http, parseEther, verifyMessage } from 'viem'
import { startRequest } from './flows.ts'
import { closes, confirmRequest, frameOf, openConnect, openSecureWindow, providerUrl, signUpInSecureWindow, snap } from './helpers.ts'
import { click } from './click.ts'

/**
 * Chromium with third-party storage off for the wallet frame (playwright.config.ts's
 * storage-blocked project): the frame keeps its session in memory and signs the user in through the
 * secure window, whose first-party store remembers them for the next page load.
 */
const chain = createPublicClient({ transport: http(`${providerUrl}/rpc/31337`) })
const widget = (page: Page) => page.frames().find((f) => f.url().startsWith(`${providerUrl}/widget/`))!

/** Resolves with the request's outcome, or 'no answer' after `ms`: a hang fails the test, not a timeout. */
const answered = (page: Page, method: string, ms: number) =>
  Promise.race([startRequest(page, method), new Promise((resolve) => setTimeout(() => resolve('no answer'), ms))])

const inboxCount = async (request: APIRequestContext, to: string) =>
  ((await (await request.get(`${providerUrl}/dev/api/inbox?to=${encodeURIComponent(to)}`)).json()) as unknown[]).length

test('with third-party storage blocked: the first sign-in goes through the secure window; after a reload one click restores the session, no code', async ({
  page,
  request,
}) => {
  const warnings: string[] = []
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()))
  await page.goto('/demo/')
  await expect(page.getByTestId('chain')).toHaveText('31337')
  // The premise: this browser refuses the frame IndexedDB.
  const idb = await widget(page).evaluate(
    () =>
      new Promise<string>((resolve) => {
        try {
          const open = indexedDB.open('probe')
          open.onsuccess = () => resolve('opened')
          open.onerror = () => resolve(`error: ${open.error?.name}`)
        } catch (error) {
          resolve(`threw: ${(error as Error).name}`)
        }
      }),
  )
  expect(idb).not.toBe('opened')
  expect(warnings.filter((w) => w.includes('does not let the wallet frame store anything'))).toHaveLength(1)

  // First sign-in: the frame offers the secure window (first-party storage), where the code is typed.
  await openConnect(page)
  const frame = frameOf(page)
  await expect(frame.getByPlaceholder('Enter your email')).toHaveCount(0)
  await snap(page, 'secure-window-login-frame')
  const { address, email } = await signUpInSecureWindow(page, request)

  const signing = startRequest(page, 'personal_sign', ['0x68656c6c6f', address])
  await expect(frame.getByRole('heading', { name: 'Sign Message' })).toBeVisible()
  await confirmRequest(page)
  const signature = (await signing).result as `0x${string}`
  expect(await verifyMessage({ address, message: 'hello', signature })).toBe(true)

  const to = '0x000000000000000000000000000000000000bEEF'
  const sending = startRequest(page, 'eth_sendTransaction', [{ from: address, to, value: `0x${parseEther('0.01').toString(16)}` }])
  await expect(frame.getByRole('heading', { name: 'Confirm Transaction' })).toBeVisible()
  await confirmRequest(page)
  const hash = (await sending).result as `0x${string}`
  const receipt = await chain.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())

  const rejected = startRequest(page, 'personal_sign', ['0x6869', address])
  await expect(frame.getByRole('heading', { name: 'Sign Message' })).toBeVisible()
  await click(frame.getByRole('button', { name: 'Reject', exact: true }))
  expect(await rejected).toMatchObject({ code: 4001 })

  // The frame's copy lived in memory: a reload starts disconnected, and answers (no hang)...
  await page.reload()
  expect(await answered(page, 'eth_accounts', 2_000)).toEqual({ result: [] })
  await expect(page.getByTestId('account')).toHaveText('—')
  expect(await answered(page, 'eth_chainId', 2_000)).toEqual({ result: '0x7a69' })
  // ...and one click brings the session back from the secure window's first-party store: no new code.
  const codes = await inboxCount(request, email)
  await openConnect(page)
  const again = await openSecureWindow(page)
  await closes(again)
  await expect(page.getByTestId('account')).toHaveText(address)
  expect(await inboxCount(request, email)).toBe(codes)

  const signingAgain = startRequest(page, 'personal_sign', ['0x68656c6c6f', address])
  await confirmRequest(page)
  const signatureAgain = (await signingAgain).result as `0x${string}`
  expect(await verifyMessage({ address, message: 'hello', signature: signatureAgain })).toBe(true)
})
