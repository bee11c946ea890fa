import { expect, test, type Page } from '@playwright/test'
import { privateKeyToAddress } from 'viem/accounts'
import { hostMessages, recorder } from './bridge-recorder.ts'
import { accounts, frameOf, latestCode, logInInFrame, pressConfirm, providerUrl, settled, snap } from './helpers.ts'

/**
 * Key export against the real sandbox: a signed-in user opens the profile, reads the risk, confirms
 * with the code the dev inbox got, reveals the key and finds it is the wallet's own. The host page's
 * recorder sees neither the key nor the step-up proof, and the key is gone once the page is left.
 */

/** The e-mail address the frame asked a login code for (the sign-up's own, made up by the helper). */
function loginEmail(page: Page): () => string {
  let email = ''
  page.on('request', (r) => {
    if (r.url() === `${providerUrl}/api/v2/auth/login-otp`) email = new URLSearchParams(r.postData() ?? '').get('email') ?? email
  })
  return () => email
}

test('export: risk, e-mail code, Reveal; the key derives the wallet; nothing of it or of the proof reaches the host', async ({ page, request }) => {
  await page.addInitScript(recorder)
  const email = loginEmail(page)
  await page.goto('/demo/')
  await page.evaluate(() => window.WalletKit!.kit!.open('connect'))
  await logInInFrame(page, request)
  const address = ((await accounts(page)) as `0x${string}`[])[0]!
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)

  let proof = ''
  let key = ''
  page.on('response', async (r) => {
    if (r.url() === `${providerUrl}/api/v2/auth/step-up/verify` && r.ok()) proof = ((await r.json()) as { data: { stepUpProof: string } }).data.stepUpProof
    if (r.url() === `${providerUrl}/api/v2/account/export-key` && r.ok()) key = ((await r.json()) as { data: { privateKey: string } }).data.privateKey
  })

  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await frame.getByRole('button', { name: 'Export private key' }).click()
  await expect(frame.getByRole('heading', { name: 'Export private key' })).toBeVisible()
  await expect(frame.getByTestId('export-key-risks')).toContainText('take all your funds')
  await snap(page, 'profile-export-key')

  await frame.getByRole('button', { name: 'Send a confirmation code' }).click()
  await expect(frame.getByText(/We sent a 6-digit code to u•••@example\.com/)).toBeVisible()
  await snap(page, 'profile-export-key-code')
  // The newest message for the address is the step-up's (its subject says so).
  const inbox = (await (await request.get(`${providerUrl}/dev/api/inbox?to=${encodeURIComponent(email())}`)).json()) as { subject: string }[]
  expect(inbox[0]!.subject).toMatch(/confirmation code$/)
  await frame.getByLabel('Confirmation code').fill(await latestCode(request, email()))

  const value = frame.getByTestId('export-key-value')
  await expect(frame.getByRole('button', { name: 'Reveal' })).toBeVisible()
  expect(key).toMatch(/^0x[0-9a-f]{64}$/)
  expect(proof).toMatch(/^sup_/)
  // Hidden until Reveal: not even in the frame's page text.
  await expect(value).not.toContainText(key.slice(2))
  await settled(page)
  await snap(page, 'profile-export-key-hidden')
  await pressConfirm(frame.getByRole('button', { name: 'Reveal' }))
  await expect(value).toHaveText(key)
  expect(privateKeyToAddress(key as `0x${string}`)).toBe(address)
  await snap(page, 'profile-export-key-shown')

  // Leaving the page forgets the key: back on it, the export starts again.
  await frame.getByRole('button', { name: 'Back' }).click()
  await frame.getByRole('button', { name: 'Export private key' }).click()
  await expect(frame.getByRole('button', { name: 'Send a confirmation code' })).toBeVisible()
  await expect(frame.getByTestId('export-key-value')).toHaveCount(0)

  const log = await hostMessages(page)
  expect(log.some((m) => m.includes(address))).toBe(true) // the recorder did see the bridge traffic
  expect(log.filter((m) => m.toLowerCase().includes(key.slice(2).toLowerCase()))).toEqual([])
  expect(log.filter((m) => m.includes(proof) || m.includes(proof.slice(4)))).toEqual([])
  expect(log.filter((m) => /sup_|suc_|privateKey|step-?up/i.test(m))).toEqual([])
})

const frameElement = '[data-testid=wallet-kit-frame]'

test('red team: a host page that fades or covers the frame cannot have Reveal or Copy clicked', async ({ page, request }) => {
  const email = loginEmail(page)
  let key = ''
  page.on('response', async (r) => {
    if (r.url() === `${providerUrl}/api/v2/account/export-key` && r.ok()) key = ((await r.json()) as { data: { privateKey: string } }).data.privateKey
  })
  await page.goto('/demo/')
  await page.evaluate(() => window.WalletKit!.kit!.open('connect'))
  await logInInFrame(page, request)
  await page.evaluate(() => window.WalletKit!.kit!.open('profile'))
  const frame = frameOf(page)
  await frame.getByRole('button', { name: 'Export private key' }).click()
  await frame.getByRole('button', { name: 'Send a confirmation code' }).click()
  await expect(frame.getByLabel('Confirmation code')).toBeVisible()
  await frame.getByLabel('Confirmation code').fill(await latestCode(request, email()))
  const reveal = frame.getByRole('button', { name: 'Reveal' })
  const copy = frame.getByRole('button', { name: 'Copy' })
  await expect(reveal).toBeVisible()
  expect(key).toMatch(/^0x[0-9a-f]{64}$/)

  const attacks = [
    // Faded: the user does not see what the frame shows, only the page's bait under it.
    () =>
      page.evaluate((s) => {
        document.querySelector<HTMLElement>(s)!.style.opacity = '0.3'
      }, frameElement),
    // Covered by the page's own picture, which lets the clicks through to the frame.
    () =>
      page.evaluate((s) => {
        const box = document.querySelector<HTMLElement>(s)!.getBoundingClientRect()
        const cover = document.createElement('div')
        cover.id = 'bait'
        cover.style.cssText = `position:fixed;left:${box.left}px;top:${box.top}px;width:${box.width}px;height:${box.height}px;background:#fff;z-index:2147483647;pointer-events:none`
        document.body.append(cover)
      }, frameElement),
  ]
  const undo = () =>
    page.evaluate((s) => {
      document.querySelector<HTMLElement>(s)!.style.opacity = ''
      document.getElementById('bait')?.remove()
    }, frameElement)
  for (const attack of attacks) {
    await attack()
    // The victim's pointer rests on the buttons well past the gate's 500 ms.
    await reveal.hover({ force: true })
    await page.waitForTimeout(1_200)
    await expect(reveal).toBeDisabled()
    await expect(copy).toBeDisabled()
    await reveal.click({ force: true }).catch(() => {})
    await expect(frame.getByTestId('export-key-value')).not.toContainText(key.slice(2))
    await undo()
  }
  // The page put back as it was: the person can reveal it.
  await pressConfirm(reveal)
  await expect(frame.getByTestId('export-key-value')).toHaveText(key)
})
