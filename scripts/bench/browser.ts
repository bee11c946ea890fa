import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright'
import { chromiumLaunch } from '../../e2e/chromium.ts'
import { serveExamples } from '../../examples/serve.ts'
import { freePort } from '../../sandbox/infra/ports.ts'
import { createSandbox } from '../../sandbox/server.ts'
import { confirmCloseDelayMs, postLoginDelayMs } from '../../widget/constants.ts'
import { widgetFrame } from './frame/measure.ts'
import { stat } from './frame/report.ts'

/**
 * Sign-in and signing timings in headless Chromium with the host page and the provider on two
 * origins, production builds (dist/, `npm run build` first): medians and p95 over `runs` fresh pages.
 * - code → connected: an existing user's e-mail code typed into the modal → `accountsChanged` on the host;
 * - Confirm → signature: the Confirm click on a personal_sign request → the signature at the host.
 * Both are timed across the two origins' processes with performance.timeOrigin + now(). The frame's
 * start, open() and the bridge are timed before and after a change by ./frame/ (the frame comparison).
 */
export async function loginTimings(options: { runs: number; log: (line: string) => void }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-kit-bench-'))
  const sandbox = await createSandbox({ port: 0, anvilPort: 0, dataDir })
  const hostPort = await freePort()
  const host = await serveExamples({ roots: ['scripts/bench/pages'], host: '127.0.0.1', port: hostPort, providerUrl: sandbox.url })
  const browser = await chromium.launch(chromiumLaunch)
  const samples = { codeToConnectedMs: [] as number[], confirmToSignatureMs: [] as number[] }
  try {
    // Existing users: a login code per e-mail address is limited (10 in 10 minutes), so a few of them.
    const users = await Promise.all(Array.from({ length: Math.ceil(options.runs / 5) }, (_, i) => createUser(sandbox.url, `bench-browser-${i}@example.com`)))
    for (let run = 0; run < options.runs; run++) {
      const measured = await loginAndSign(browser, `http://127.0.0.1:${hostPort}/bench-blank`, sandbox.url, users[run % users.length]!)
      samples.codeToConnectedMs.push(measured.codeToConnectedMs)
      samples.confirmToSignatureMs.push(measured.confirmToSignatureMs)
      options.log(
        `browser login run ${run + 1}/${options.runs}: code → connected ${measured.codeToConnectedMs.toFixed(0)} ms, Confirm → signature ${measured.confirmToSignatureMs.toFixed(0)} ms`,
      )
    }
  } finally {
    await browser.close()
    host.close()
    await sandbox.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  return {
    runs: options.runs,
    postLoginDelayMs: postLoginDelayMs.otp,
    confirmCloseDelayMs,
    codeToConnectedMs: stat(samples.codeToConnectedMs),
    confirmToSignatureMs: stat(samples.confirmToSignatureMs),
  }
}

/** An existing user (wallet created), made through the wallet API as a back end would. */
async function createUser(providerUrl: string, email: string): Promise<string> {
  const headers = { 'x-app-id': 'demo', 'x-environment': 'development', 'x-client-secret': 'demo-client-secret' }
  const post = async (path: string, body: string, contentType: string, token?: string) => {
    const response = await fetch(`${providerUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    })
    const json = (await response.json()) as { data: Record<string, string> }
    if (!response.ok) throw new Error(`${path}: ${JSON.stringify(json)}`)
    return json.data
  }
  const { verificationToken } = await post('/api/v2/auth/login-otp', new URLSearchParams({ email }).toString(), 'application/x-www-form-urlencoded')
  const login = await post('/api/v2/auth/verify-otp', JSON.stringify({ verificationToken, otp: await latestCode(providerUrl, email) }), 'application/json')
  await post('/api/v2/account/create', '{}', 'application/json', login.accessToken)
  return email
}

async function latestCode(providerUrl: string, email: string): Promise<string> {
  for (let tries = 0; tries < 50; tries++) {
    const [message] = (await (await fetch(`${providerUrl}/dev/api/inbox?to=${encodeURIComponent(email)}`)).json()) as { code?: string }[]
    if (message?.code) return message.code
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`No login code for ${email}`)
}

/**
 * An existing user logs in on a fresh page (its own browser context: nothing stored), then signs a
 * message. Each start is taken where it happens, in the frame (the code's input event, the Confirm
 * click), each end in the host page (accountsChanged, the signature).
 */
async function loginAndSign(browser: Browser, blankUrl: string, providerUrl: string, email: string) {
  const page = await browser.newPage()
  try {
    await page.addInitScript('window.__name = (f) => f')
    await page.goto(blankUrl)
    await page.addScriptTag({ url: `${providerUrl}/kit.js` })
    await page.evaluate(() => {
      // A clock both origins' processes share: ms since the epoch, sub-millisecond.
      const now = () => performance.timeOrigin + performance.now()
      const kit = window.WalletKit!.createWalletKit({ appId: 'demo' })
      const w = window as unknown as { __connectedAt: Promise<number> }
      w.__connectedAt = new Promise((resolve) =>
        kit.provider.on('accountsChanged', (accounts: unknown) => {
          if (Array.isArray(accounts) && accounts.length > 0) resolve(now())
        }),
      )
      kit.open()
    })
    const frame = await widgetFrame(page)
    await frame.getByPlaceholder('Enter your email').fill(email)
    await frame.getByRole('button', { name: 'Continue', exact: true }).click()
    const codeInput = frame.getByLabel('Verification code')
    await codeInput.waitFor()
    const code = await latestCode(providerUrl, email)
    // The modal verifies as soon as the sixth digit is in: that input event is "code submitted".
    await frame.evaluate(() => {
      // A clock both origins' processes share: ms since the epoch, sub-millisecond.
      const now = () => performance.timeOrigin + performance.now()
      const input = document.getElementById('wk-otp') as HTMLInputElement
      const w = window as unknown as { __codeAt?: number }
      input.addEventListener('input', () => {
        if (input.value.length === 6) w.__codeAt ??= now()
      })
    })
    await codeInput.fill(code)
    const connectedAt = await page.evaluate(() => (window as unknown as { __connectedAt: Promise<number> }).__connectedAt)
    const codeAt = await frame.evaluate(() => (window as unknown as { __codeAt: number }).__codeAt)
    await page.getByTestId('wallet-kit-frame').waitFor({ state: 'hidden' })

    await page.evaluate(() => {
      // A clock both origins' processes share: ms since the epoch, sub-millisecond.
      const now = () => performance.timeOrigin + performance.now()
      const kit = window.WalletKit!.kit!
      const w = window as unknown as { __signedAt: Promise<number> }
      w.__signedAt = kit.provider
        .request({ method: 'eth_accounts' })
        .then((accounts) => kit.provider.request({ method: 'personal_sign', params: ['0x68656c6c6f', (accounts as string[])[0]!] as never }))
        .then(() => now())
    })
    const confirm = frame.getByRole('button', { name: 'Confirm' })
    await frame.getByRole('heading', { name: 'Sign Message' }).waitFor()
    // As a person clicks: the pointer rests on the button until the confirm gate arms it (widget/ui/use-confirm-gate.ts).
    await confirm.hover()
    const deadline = Date.now() + 5000
    while (
      !(await confirm.evaluate((b: HTMLButtonElement) => new Promise<boolean>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(!b.disabled))))))
    )
      if (Date.now() > deadline) throw new Error('Confirm never armed')
    await frame.evaluate(() => {
      // A clock both origins' processes share: ms since the epoch, sub-millisecond.
      const now = () => performance.timeOrigin + performance.now()
      const w = window as unknown as { __clickAt?: number }
      document.addEventListener('click', () => (w.__clickAt ??= now()), { capture: true })
    })
    await confirm.click()
    const signedAt = await page.evaluate(() => (window as unknown as { __signedAt: Promise<number> }).__signedAt)
    const clickAt = await frame.evaluate(() => (window as unknown as { __clickAt: number }).__clickAt)
    return { codeToConnectedMs: connectedAt - codeAt, confirmToSignatureMs: signedAt - clickAt }
  } finally {
    await page.context().close()
  }
}
