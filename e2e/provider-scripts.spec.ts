import { expect, test, type Page, type Request } from '@playwright/test'
import { appConfigElementId } from '../sdk/app-config.ts'
import { accounts, frameOf, openConnect, providerUrl, snap } from './helpers.ts'
import { click } from './click.ts'

/**
 * The providers' own sign-in scripts, which the frame loads only on demand (a click on that sign-in),
 * from the URLs app config names: for the sandbox's demo app, its stand-ins of Google Identity Services, Sign in with Apple
 * JS and the Telegram login widget. The widget's code is the one it runs against the providers.
 */
const standIns = [`${providerUrl}/oauth/google/gsi/client`, `${providerUrl}/oauth/apple/appleid.auth.js`, `${providerUrl}/telegram/telegram-widget.js`]
const realProviders = /accounts\.google\.com|apple\.com|telegram\.org/

/** Every script any frame of the page requested. */
function scriptsOf(page: Page): string[] {
  const seen: string[] = []
  page.on('request', (r: Request) => void (r.resourceType() === 'script' && seen.push(r.url())))
  return seen
}

async function openHome(page: Page) {
  await page.goto('/demo/')
  await openConnect(page)
  const frame = frameOf(page)
  await expect(frame.getByRole('button', { name: 'Continue with Google' })).toBeVisible()
  return frame
}

test('no sign-in script loads with the home; a click loads exactly the one app config names, never a real provider', async ({ page }) => {
  const scripts = scriptsOf(page)
  const frame = await openHome(page)
  // The frame preloads its own lazy parts once idle; provider scripts are not among them.
  await page.waitForTimeout(2500)
  expect(scripts.filter((url) => standIns.includes(url) || realProviders.test(url))).toEqual([])

  const popup = page.waitForEvent('popup')
  await click(frame.getByRole('button', { name: 'Continue with Telegram' }))
  await (await popup).close()
  expect(scripts.filter((url) => standIns.includes(url) || realProviders.test(url))).toEqual([`${providerUrl}/telegram/telegram-widget.js`])
  await expect(frame.getByText('Something went wrong')).toBeVisible()
})

test('a forged answer (from the host page, or the frame itself, with the right state) is refused; the real one signs in', async ({ page }) => {
  const exchanged: string[] = []
  page.on('request', (r) => void (r.url() === `${providerUrl}/api/v2/auth/google` && exchanged.push(r.postDataJSON().code)))
  const frame = await openHome(page)
  const popupEvent = page.waitForEvent('popup')
  await click(frame.getByRole('button', { name: 'Continue with Google' }))
  const popup = await popupEvent
  await expect(popup.getByRole('heading', { name: 'Sign in with Google' })).toBeVisible()
  const state = new URL(popup.url()).searchParams.get('state')
  expect(state).toMatch(/^[0-9a-f]{32}$/)

  const forged = { provider: 'google', code: 'forged-code', state }
  // Another origin (the host page) posting into the frame…
  await page.evaluate((m) => document.querySelector<HTMLIFrameElement>('[data-testid=wallet-kit-frame]')!.contentWindow!.postMessage(m, '*'), forged)
  // …and the frame's own origin, from a window that is not the sign-in popup.
  const widget = page.frames().find((f) => f.url().startsWith(`${providerUrl}/widget/`))!
  await widget.evaluate((m) => window.postMessage(m, location.origin), forged)
  await page.waitForTimeout(500)
  expect(exchanged).toEqual([])

  await popup.getByLabel('E-mail').fill(`scripts-${Date.now()}@example.com`)
  await click(popup.getByRole('button', { name: 'Continue', exact: true }))
  await expect(frame.getByRole('heading', { name: 'Wallet Created Successfully!' })).toBeVisible()
  expect(exchanged).toHaveLength(1)
  expect(exchanged[0]).not.toBe('forged-code')
  await click(frame.getByRole('button', { name: 'Done' }))
  await expect.poll(async () => ((await accounts(page)) as string[]).length).toBe(1)
})

test('a script that fails to load says so on an error line, not a spinner; the next click loads it', async ({ page }) => {
  let fail = true
  await page.route(`${providerUrl}/oauth/apple/appleid.auth.js`, (route) => (fail ? route.abort() : route.continue()))
  const frame = await openHome(page)
  await click(frame.getByRole('button', { name: 'Continue with Apple' }))
  await expect(frame.getByText('Apple sign-in could not load. Check your connection and try again.')).toBeVisible()
  await expect(frame.getByRole('button', { name: 'Continue with Apple' })).toBeEnabled()
  fail = false
  const popup = page.waitForEvent('popup')
  await click(frame.getByRole('button', { name: 'Continue with Apple' }))
  await expect((await popup).getByRole('heading', { name: 'Sign in with Apple' })).toBeVisible()
})

test("app config naming any other script (a tampered copy) loads nothing, and the frame's CSP would refuse it anyway", async ({ page }) => {
  const evil = 'https://cdn.attacker.example/gsi/client'
  // The app config comes with the frame's page (its data block): tampered there.
  await page.route(
    (url) => url.origin === providerUrl && url.pathname === '/widget/',
    async (route) => {
      const response = await route.fetch()
      const html = await response.text()
      const [block, json] = html.match(new RegExp(`<script type="application/json" id="${appConfigElementId}">(.*?)</script>`, 's'))!
      const config = JSON.parse(json!)
      config.google.scriptUrl = evil
      await route.fulfill({ response, body: html.replace(block, block.replace(json!, JSON.stringify(config))) })
    },
  )
  const requested: string[] = []
  page.on('request', (r) => void (r.url().startsWith('https://cdn.attacker.example') && requested.push(r.url())))
  const frame = await openHome(page)
  await click(frame.getByRole('button', { name: 'Continue with Google' }))
  await expect(frame.getByText('Google sign-in could not load. Check your connection and try again.')).toBeVisible()
  await snap(page, 'social-script-refused')
  expect(requested).toEqual([])
  // Even a script that slipped past the check could not run: the frame's policy names no such source.
  const widget = page.frames().find((f) => f.url().startsWith(`${providerUrl}/widget/`))!
  const policy = (await page.request.get(widget.url())).headers()['content-security-policy']
  expect(policy).toMatch(/script-src 'self'(;|$)/)
})
