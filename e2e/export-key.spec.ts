import { expect, test, type Page } from '@playwright/test'
import { privateKeyToAddress } from 'viem/accounts'
import { hostMessages, recorder } from './bridge-recorder.ts'
import { accounts, demoOrigin, frameOf, latestCode, logInInFrame, pressConfirm, providerUrl, snap } from './helpers.ts'
import { click } from './click.ts'

/**
 * Key export against the real sandbox: a signed-in user opens the profile, reads the risk, confirms
 * with the code the dev inbox got, and the key is shown in the secure window (a top-level window on
 * the provider origin, which no host page can cover), which fetched it itself. The key derives the
 * wallet's address; the host page's recorder sees neither the key nor the step-up proof; the
 * frame's page never held the key at any moment, and never asked for it.
 */

/** The e-mail address the frame asked a login code for (the sign-up's own, made up by the helper). */
function loginEmail(page: Page): () => string {
  let email = ''
  page.on('request', (r) => {
    if (r.url() === `${providerUrl}/api/v2/auth/login-otp`) email = new URLSearchParams(r.postData() ?? '').get('email') ?? email
  })
  return () => email
}

/** Every text and attribute the wallet frame's page ever held, from its first script on (read with `frameTexts`). */
const watchFrame = (provider: string) => {
  if (location.origin !== provider || window === window.top) return
  const seen: string[] = []
  ;(window as unknown as { seenTexts: string[] }).seenTexts = seen
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') seen.push((r.target as Element).getAttribute(r.attributeName!) ?? '')
      else if (r.type === 'characterData') seen.push(r.target.textContent ?? '')
      else for (const node of r.addedNodes) seen.push(node instanceof Element ? node.outerHTML : (node.textContent ?? ''))
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
}
const frameTexts = (page: Page) =>
  page
    .frames()
    .find((f) => f.url().startsWith(`${providerUrl}/widget/`))!
    .evaluate(() => [...(window as unknown as { seenTexts: string[] }).seenTexts, document.documentElement.outerHTML])

const exportUrl = `${providerUrl}/api/v2/account/export-key`

/** Signed in, on the export page, the code typed: the frame offers the secure window; its step-up proof. */
async function confirmedExport(page: Page, request: Parameters<typeof latestCode>[0]) {
  const email = loginEmail(page)
  await page.goto('/demo/')
  await page.evaluate(() => window.WalletKit!.kit!.open('connect'))
  await logInInFrame(page, request)
  const address = ((await accounts(page)) as `0x${string}`[])[0]!
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await click(frame.getByRole('button', { name: 'Export private key' }))
  await expect(frame.getByRole('heading', { name: 'Export private key' })).toBeVisible()
  await expect(frame.getByTestId('export-key-risks')).toContainText('take all your funds')
  await snap(page, 'profile-export-key')
  await click(frame.getByRole('button', { name: 'Send a confirmation code' }))
  await expect(frame.getByText(/We sent a 6-digit code to u•••@example\.com/)).toBeVisible()
  await snap(page, 'profile-export-key-code')
  // The newest message for the address is the step-up's (its subject says so).
  const inbox = (await (await request.get(`${providerUrl}/dev/api/inbox?to=${encodeURIComponent(email())}`)).json()) as { subject: string }[]
  expect(inbox[0]!.subject).toMatch(/confirmation code$/)
  const verified = page.waitForResponse((r) => r.url() === `${providerUrl}/api/v2/auth/step-up/verify` && r.ok())
  await frame.getByLabel('Confirmation code').fill(await latestCode(request, email()))
  const proof = ((await (await verified).json()) as { data: { stepUpProof: string } }).data.stepUpProof
  expect(proof).toMatch(/^sup_/)
  await expect(frame.getByTestId('export-key-ready')).toBeVisible()
  return { frame, address, proof }
}

test('export: risk, e-mail code, then the secure window shows the key; it derives the wallet; the frame never held it, the host saw nothing of it', async ({
  page,
  request,
}) => {
  await page.addInitScript(recorder)
  await page.addInitScript(watchFrame, providerUrl)
  const asked: string[] = []
  page.on('request', (r) => asked.push(r.url()))
  const { frame, address, proof } = await confirmedExport(page, request)
  await snap(page, 'profile-export-key-window-offer')

  const opened = page.waitForEvent('popup')
  await click(frame.getByRole('button', { name: 'Show the key in a secure window' }))
  const popup = await opened
  expect(new URL(popup.url()).origin).toBe(providerUrl)
  const answered = popup.waitForResponse((r) => r.url() === exportUrl)
  const response = await answered
  expect(response.ok()).toBe(true)
  const key = ((await response.json()) as { data: { privateKey: `0x${string}` } }).data.privateKey
  expect(key).toMatch(/^0x[0-9a-f]{64}$/)
  await expect(frame.getByTestId('secure-window-open')).toBeVisible()

  const value = popup.getByTestId('export-key-value')
  await expect(popup.getByRole('button', { name: 'Reveal' })).toBeVisible()
  // The channel's name has left the window's address (and its history).
  expect(popup.url()).not.toContain('channel=')
  // Hidden until Reveal: not even in the window's page text.
  await expect(value).not.toContainText(key.slice(2))
  await snap(popup, 'secure-window-export-key-hidden')
  // Reveal, as the window's Confirm, takes a click only after the hand moved in the window.
  await pressConfirm(popup.getByRole('button', { name: 'Reveal' }))
  await expect(value).toHaveText(key)
  expect(privateKeyToAddress(key)).toBe(address)
  await snap(popup, 'secure-window-export-key-shown')

  // The frame never asked for the key and its page never held it, at any moment.
  expect(asked.filter((url) => url === exportUrl)).toEqual([])
  const texts = await frameTexts(page)
  expect(texts.length).toBeGreaterThan(10) // the watcher did see the frame's pages
  expect(texts.filter((t) => t.toLowerCase().includes(key.slice(2).toLowerCase()))).toEqual([])

  // Closing the window ends the export: the frame says so, and a new export starts from a new code.
  await popup.close()
  await expect(frame.getByText('The secure window is closed: the key is no longer shown anywhere.')).toBeVisible()
  await click(frame.getByRole('button', { name: 'Export again' }))
  await expect(frame.getByRole('button', { name: 'Send a confirmation code' })).toBeVisible()

  const log = await hostMessages(page)
  expect(log.some((m) => m.includes(address))).toBe(true) // the recorder did see the bridge traffic
  expect(log.filter((m) => m.toLowerCase().includes(key.slice(2).toLowerCase()))).toEqual([])
  expect(log.filter((m) => m.includes(proof) || m.includes(proof.slice(4)))).toEqual([])
  expect(log.filter((m) => /sup_|suc_|privateKey|step-?up|walletToken/i.test(m))).toEqual([])
})

test('a blocked secure window: the frame says so and a click opens it; leaving the export page closes the window', async ({ page, context, request }) => {
  // A popup blocker for the first try: window.open in the wallet frame answers null and opens nothing.
  await context.addInitScript((provider) => {
    if (location.origin !== provider || window === window.top) return
    const open = window.open.bind(window)
    let blocked = false
    window.open = (...args) => {
      if (blocked) return open(...args)
      blocked = true
      return null
    }
  }, providerUrl)
  const { frame } = await confirmedExport(page, request)
  await click(frame.getByRole('button', { name: 'Show the key in a secure window' }))
  await expect(frame.getByTestId('secure-window-blocked')).toHaveText(/blocked the secure window/)
  await snap(page, 'profile-export-key-blocked')
  const opened = page.waitForEvent('popup')
  await click(frame.getByRole('button', { name: 'Try again' }))
  const popup = await opened
  await expect(popup.getByRole('button', { name: 'Reveal' })).toBeVisible()
  // Back in the profile: the page that opened the window is gone, and the window with it.
  const closed = popup.waitForEvent('close')
  await click(frame.getByRole('button', { name: 'Back' }))
  await closed
})

test('red team: a host page that opens the window URL itself, with a handoff on its channel, gets the notice and no key is asked for', async ({
  page,
  request,
}) => {
  await page.goto('/demo/')
  const channel = 'B'.repeat(43)
  // Written from outside a browser (no Origin, Sec-Fetch-Site claimed): what a host's server could do with a channel name it made.
  const write = (message: unknown) =>
    request.post(`${providerUrl}/popup-channel/${channel}/frame`, { data: message, headers: { 'sec-fetch-site': 'same-origin' } })
  expect((await write({ type: 'open', purpose: 'export-key', hostOrigin: demoOrigin })).status()).toBe(204)
  expect((await write({ type: 'export-key', walletToken: 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln', stepUpProof: `sup_${'C'.repeat(43)}` })).status()).toBe(
    204,
  )
  const asked: string[] = []
  page.context().on('request', (r) => asked.push(r.url()))
  const opened = page.context().waitForEvent('page')
  await page.evaluate(
    ([url]) => window.open(url, '_blank', 'popup'),
    [`${providerUrl}/widget/?appId=demo&env=sandbox&origin=${encodeURIComponent(demoOrigin)}&window=secure#channel=${channel}`],
  )
  const popup = await opened
  await expect(popup.getByTestId('secure-window-notice')).toHaveText(/works only when the wallet opens it/)
  await page.waitForTimeout(1_500) // a window that listened would have read the handoff by now
  expect(asked.filter((url) => url === exportUrl)).toEqual([])
  expect(asked.filter((url) => url.includes(`/popup-channel/${channel}/`))).toEqual([])
})
