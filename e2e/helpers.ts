import { expect, type APIRequestContext, type FrameLocator, type Locator, type Page } from '@playwright/test'

import { click, pointerReaches } from './click.ts'
import { demoOrigin as demoOriginOf, otherDemoOrigin as otherDemoOriginOf, providerUrl as providerUrlOf } from './ports.ts'

/** The suite's own sandbox and host origins (free ports: e2e/ports.ts). */
export const providerUrl = providerUrlOf()
export const demoOrigin = demoOriginOf()
export const otherDemoOrigin = otherDemoOriginOf()
export const frameOf = (page: Page): FrameLocator => page.frameLocator('[data-testid=wallet-kit-frame]')

/** One screenshot per modal page, at desktop width and at a 390 px phone width. */
export async function snap(page: Page, name: string): Promise<void> {
  const desktop = page.viewportSize() ?? { width: 1280, height: 720 }
  await settled(page)
  await page.screenshot({ path: `test-results/screens/${name}-desktop.png` })
  await page.setViewportSize({ width: 390, height: 844 })
  await settled(page)
  await page.screenshot({ path: `test-results/screens/${name}-phone.png` })
  await page.setViewportSize(desktop)
  // The frame lays out again at the desktop width (a click that follows waits for the pointer to reach its target: click.ts).
  await settled(page)
}

/**
 * Waits until the wallet frame shows the page as it will stay: the frame is laid out at the page's
 * width (a viewport change reaches an out-of-process frame a little later) and no finite animation
 * (a page's entrance, the phone's sheet coming up) runs in it or in the page, for a few frames in a
 * row. The frame itself checks between its own rendering updates: headless Chromium may not advance
 * a cross-origin frame's animation until that frame renders, and requestAnimationFrame makes it. A
 * page that has not settled after 3 s is taken as it is (a screenshot, an audit of what is there).
 */
export async function settled(page: Page): Promise<void> {
  const frame = page.frames().find((f) => f.url().includes('/widget/'))
  if (!frame) return
  const inPage = frame !== page.mainFrame()
  // A hidden frame shows nothing (and does not render: its animations wait for it to be shown).
  if (inPage && !(await (await frame.frameElement()).isVisible())) return
  const width = inPage ? await page.evaluate(() => document.documentElement.clientWidth) : 0
  await Promise.all([
    frame.evaluate(
      (width) =>
        new Promise<void>((done) => {
          const deadline = setTimeout(done, 3000)
          let calm = 0
          const look = () =>
            requestAnimationFrame(() => {
              const moving = document.getAnimations().some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity)
              calm = moving || (width && document.documentElement.clientWidth !== width) ? 0 : calm + 1
              if (calm < 3) return look()
              clearTimeout(deadline)
              done()
            })
          look()
        }),
      width,
    ),
    inPage &&
      expect
        .poll(
          () => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity).length),
          {
            intervals: [16, 32, 64],
            timeout: 3000,
          },
        )
        .toBe(0)
        .catch(() => {}),
  ])
}

/** The newest login code the sandbox's dev inbox holds for `to`. */
export async function latestCode(request: APIRequestContext, to: string): Promise<string> {
  let code: string | undefined
  await expect
    .poll(
      async () => {
        const res = await request.get(`${providerUrl}/dev/api/inbox?to=${encodeURIComponent(to)}`)
        const messages = (await res.json()) as { code: string }[]
        code = messages[0]?.code
        return code
      },
      { intervals: [100] },
    )
    .toMatch(/^\d{6}$/)
  return code!
}

/** How many mails the dev inbox holds for `to` (a step-up that sends no code leaves it as it was). */
export const inboxSize = async (request: APIRequestContext, to: string): Promise<number> =>
  ((await (await request.get(`${providerUrl}/dev/api/inbox?to=${encodeURIComponent(to)}`)).json()) as unknown[]).length

/** Clicks the demo page's Connect button (or `connect`) and waits until the wallet frame shows its page, settled. */
export async function openConnect(page: Page, connect: Locator = page.getByRole('button', { name: 'Connect' })): Promise<void> {
  await click(connect)
  await expect(page.getByTestId('wallet-kit-frame')).toBeVisible()
  await settled(page)
}

export const uniqueEmail = () => `user-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

export async function accounts(page: Page): Promise<unknown> {
  return page.evaluate(() => window.WalletKit!.kit!.provider.request({ method: 'eth_accounts' }))
}

/**
 * Signs a new user up in the connect modal that is already open (e-mail code, new wallet, Done); what
 * the modal shows next is the caller's to check.
 */
export async function signUpInFrame(page: Page, request: APIRequestContext): Promise<string> {
  const frame = frameOf(page)
  const email = uniqueEmail()
  await frame.getByPlaceholder('Enter your email').fill(email)
  await click(frame.getByRole('button', { name: 'Continue', exact: true }))
  await frame.getByLabel('Verification code').fill(await latestCode(request, email))
  await click(frame.getByRole('button', { name: 'Done' }))
  return email
}

/** Logs a new user in through the connect modal that is already open; the modal then closes. */
export async function logInInFrame(page: Page, request: APIRequestContext): Promise<void> {
  await signUpInFrame(page, request)
  await expect(page.getByTestId('wallet-kit-frame')).toBeHidden()
}

/**
 * Clicks Confirm as a person does: the pointer comes into the frame and rests on the button until it
 * is armed (the gate disarms it for 500 ms after the pointer comes in from outside, so that a frame
 * moved under a waiting pointer cannot take its click: widget/ui/use-confirm-gate.ts), then clicks.
 */
export async function pressConfirm(button: Locator): Promise<void> {
  const page = button.page()
  // Tried again if the button is replaced as it is scrolled to (a re-render of its page): the locator
  // then finds the new one. Playwright does not retry this action on a detached element itself.
  await expect(() => button.scrollIntoViewIfNeeded({ timeout: 2000 })).toPass({ timeout: 45_000 })
  const centre = async () => {
    const box = (await button.boundingBox())!
    return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  }
  // The pointer travels to the button, as a hand does (the secure window's Confirm waits for that).
  let at = await centre()
  await page.mouse.move(at.x - 24, at.y)
  await page.mouse.move(at.x, at.y, { steps: 4 })
  // And the button's document sees it there (the browser's routing into a frame can be stale: click.ts).
  await pointerReaches(button)
  at = await centre()
  let wiggle = 0
  // Each look lets the button's frame render twice first: IntersectionObserver reports are made in
  // rendering updates, which headless Chromium may not run for a still cross-origin frame.
  await expect
    .poll(
      async () => {
        const enabled = await button
          .evaluate(
            (b: HTMLButtonElement) => new Promise<boolean>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(!b.disabled)))),
            undefined,
            {
              timeout: 1000,
            },
          )
          .catch(() => false)
        // Not yet: the pointer keeps moving over it (a window raised meanwhile waits for a new move).
        if (!enabled && ++wiggle % 3 === 0) {
          at = await centre()
          await page.mouse.move(at.x + (wiggle % 2 ? 12 : -12), at.y, { steps: 3 })
          await page.mouse.move(at.x, at.y, { steps: 3 })
        }
        return enabled
      },
      {
        // Looks every 100 ms: the gate opens 500 ms after the pointer came in.
        intervals: [100],
      },
    )
    .toBe(true)
  // biome-ignore lint/plugin: the gate is armed, so the pointer is over the button in its document already
  await button.click()
}

/** Confirms the signing request the widget is showing (title 'Sign Message'). */
export async function confirmSignature(page: Page): Promise<void> {
  const frame = frameOf(page)
  await expect(frame.getByRole('heading', { name: 'Sign Message' })).toBeVisible()
  await confirmRequest(page)
}

/** Clicks 'Open secure window' in the frame and returns the window that opened (widget/secure/). */
export async function openSecureWindow(page: Page): Promise<Page> {
  const opened = page.context().waitForEvent('page')
  // Gated like Confirm: the pointer rests on it first.
  await pressConfirm(frameOf(page).getByRole('button', { name: 'Open secure window' }))
  const popup = await opened
  await popup.waitForLoadState()
  return popup
}

/** Resolves when `window` has closed (at once if it has), failing after `timeout` ms. */
export async function closes(window: Page, timeout = 5000): Promise<void> {
  if (!window.isClosed()) await window.waitForEvent('close', { timeout })
}

/**
 * Confirms the request the wallet shows where the kit puts it: in the frame for a plain-text
 * message (when the frame can show it whole), in the secure window for everything else.
 */
export async function confirmRequest(page: Page): Promise<void> {
  const frame = frameOf(page)
  const confirm = frame.getByRole('button', { name: 'Confirm' })
  const offer = frame.getByRole('button', { name: 'Open secure window' })
  await expect(confirm.or(offer)).toBeVisible()
  if (await confirm.isVisible()) return pressConfirm(confirm)
  const popup = await openSecureWindow(page)
  await pressConfirm(popup.getByRole('button', { name: 'Confirm' }))
  await closes(popup, 30_000)
}

/**
 * Signs a new user up in the secure window the frame opened (e-mail code, new wallet, Done); the
 * window hands the session to the frame and closes. Returns the address the host page shows.
 */
export async function signUpInSecureWindow(page: Page, request: APIRequestContext): Promise<{ address: `0x${string}`; email: string }> {
  const popup = await openSecureWindow(page)
  const email = uniqueEmail()
  await popup.getByPlaceholder('Enter your email').fill(email)
  await click(popup.getByRole('button', { name: 'Continue', exact: true }))
  await popup.getByLabel('Verification code').fill(await latestCode(request, email))
  await click(popup.getByRole('button', { name: 'Done' }))
  await closes(popup)
  await expect(page.getByTestId('account')).toHaveText(/^0x[0-9a-fA-F]{40}$/)
  return { address: (await page.getByTestId('account').textContent()) as `0x${string}`, email }
}

/** EIP-712 typed data a dapp asks `address` to sign, on `chainId` (the first local chain unless named). */
export const typedData = (address: string, text = 'gm', chainId = 31337) => ({
  domain: { name: 'Wallet Kit Demo', version: '1', chainId },
  types: {
    EIP712Domain: [
      { name: 'name', type: 'string' },
      { name: 'version', type: 'string' },
      { name: 'chainId', type: 'uint256' },
    ],
    Greeting: [
      { name: 'from', type: 'address' },
      { name: 'text', type: 'string' },
    ],
  },
  primaryType: 'Greeting',
  message: { from: address, text },
})
