import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Browser, type Frame, type Page } from 'playwright'
import { chromiumLaunch } from '../../e2e/chromium.ts'
import { serveExamples } from '../../examples/serve.ts'
import { freePort } from '../../sandbox/infra/ports.ts'
import { createSandbox } from '../../sandbox/server.ts'

/**
 * Timings in headless Chromium with the host page and the provider on two origins, production
 * builds (dist/, `npm run build` first): medians and p95 over `runs` fresh pages.
 * - handshake: createWalletKit() on a page with kit.js → the first answer (frame loaded, widget
 *   started, app config read, Penpal handshake);
 * - modal visible: kit.open() → the frame shown over the page;
 * - bridge call: one eth_chainId answered by the frame, beside a raw MessageChannel round trip to a
 *   frame of another site in the same page (and to an opaque-origin srcdoc frame): the cost of the
 *   bridge's checks;
 * - code → connected: an existing user's e-mail code typed into the modal → `accountsChanged` on the host;
 * - Confirm → signature: the Confirm click on a personal_sign request → the signature at the host.
 * The last two are timed across the two origins' processes with performance.timeOrigin + now().
 */
export async function browserTimings(options: { runs: number; log: (line: string) => void }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-kit-bench-'))
  const sandbox = await createSandbox({ port: 0, anvilPort: 0, dataDir })
  const hostPort = await freePort()
  const host = await serveExamples({ roots: ['dist/examples', 'examples', 'scripts/bench/pages'], host: '127.0.0.1', port: hostPort, providerUrl: sandbox.url })
  const browser = await chromium.launch(chromiumLaunch)
  const samples = {
    handshakeMs: [] as number[],
    modalVisibleMs: [] as number[],
    bridgeCallMs: [] as number[],
    rawRoundTripMs: [] as number[],
    rawOpaqueRoundTripMs: [] as number[],
    // Where createWalletKit() → first answer goes, each from createWalletKit(): the frame's
    // navigation starts, its document has arrived, its code runs (the app config is requested),
    // the app config has arrived; then the first answer is at the host.
    phaseNavigationMs: [] as number[],
    phaseDocumentMs: [] as number[],
    phaseScriptsMs: [] as number[],
    phaseAppConfigMs: [] as number[],
    codeToConnectedMs: [] as number[],
    confirmToSignatureMs: [] as number[],
  }
  try {
    for (let run = 0; run < options.runs; run++) {
      const page = await browser.newPage()
      // tsx names the functions it compiles with a helper the page does not have.
      await page.addInitScript('window.__name = (f) => f')
      // A page of the host origin with nothing of ours on it yet (the examples server's 404 page).
      await page.goto(`http://127.0.0.1:${hostPort}/bench-blank`)
      await page.addScriptTag({ url: `${sandbox.url}/kit.js` })
      const { clock, ...measured } = await measureInPage(page, `http://localhost:${hostPort}/bench-echo.html`)
      for (const key of Object.keys(measured) as (keyof typeof measured)[]) samples[key].push(measured[key])
      const phases = await firstAnswerPhases(await widgetFrame(page), clock.createdAt)
      for (const key of Object.keys(phases) as (keyof typeof phases)[]) samples[key].push(phases[key])
      await page.close()
      options.log(`browser run ${run + 1}/${options.runs}: handshake ${measured.handshakeMs.toFixed(0)} ms`)
    }
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
  const stats = Object.fromEntries(Object.entries(samples).map(([key, values]) => [key, summary(values)])) as Record<keyof typeof samples, Summary>
  return { runs: options.runs, ...stats, bridgeToRawRatio: Number((stats.bridgeCallMs.median / stats.rawRoundTripMs.median).toFixed(2)) }
}

type Summary = { median: number; p95: number }

function summary(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN
  return { median: Number(at(0.5).toFixed(2)), p95: Number(at(0.95).toFixed(2)) }
}

function measureInPage(page: Page, echoUrl: string) {
  return page.evaluate(async (echoUrl) => {
    const createdAt = performance.timeOrigin + performance.now()
    const kit = window.WalletKit!.createWalletKit({ appId: 'demo' })
    let start = performance.now()
    await kit.provider.request({ method: 'eth_chainId' })
    const handshakeMs = performance.now() - start

    const frame = document.querySelector('[data-testid=wallet-kit-frame]') as HTMLElement
    start = performance.now()
    const shown = new Promise<number>((resolve) => {
      const observer = new MutationObserver(() => {
        if (!frame.getAttribute('style')?.includes('display:none')) {
          observer.disconnect()
          resolve(performance.now() - start)
        }
      })
      observer.observe(frame, { attributes: true, attributeFilter: ['style'] })
    })
    kit.open()
    const modalVisibleMs = await shown
    kit.close()

    // Steady state: the closed modal has settled (its 50 ms reset, the lazy chunks open() fetched)
    // and both sides are warm, as for the raw round trips below; measured over 200 calls.
    await new Promise((resolve) => setTimeout(resolve, 500))
    for (let i = 0; i < 20; i++) await kit.provider.request({ method: 'eth_chainId' })
    const rounds = 200
    start = performance.now()
    for (let i = 0; i < rounds; i++) await kit.provider.request({ method: 'eth_chainId' })
    const bridgeCallMs = (performance.now() - start) / rounds

    // A frame that answers every message on a MessageChannel port: one of another site (the same
    // process split as the wallet frame's; the baseline), and an opaque-origin srcdoc frame
    // (which Chromium may keep in the page's own process).
    const roundTrip = async (echo: HTMLIFrameElement) => {
      await new Promise((resolve) => {
        echo.onload = resolve
        document.body.append(echo)
      })
      const channel = new MessageChannel()
      echo.contentWindow!.postMessage('port', '*', [channel.port2])
      const ask = (data: unknown) =>
        new Promise((resolve) => {
          channel.port1.onmessage = resolve
          channel.port1.postMessage(data)
        })
      await ask({ warm: true })
      const began = performance.now()
      for (let i = 0; i < rounds; i++) await ask({ jsonrpc: '2.0', id: i, method: 'eth_chainId' })
      return (performance.now() - began) / rounds
    }
    const crossSite = document.createElement('iframe')
    crossSite.src = echoUrl
    const rawRoundTripMs = await roundTrip(crossSite)
    const opaque = document.createElement('iframe')
    opaque.setAttribute('sandbox', 'allow-scripts')
    opaque.srcdoc = '<script>onmessage = (e) => { const port = e.ports[0]; port.onmessage = (m) => port.postMessage(m.data) }</script>'
    const rawOpaqueRoundTripMs = await roundTrip(opaque)
    return { handshakeMs, modalVisibleMs, bridgeCallMs, rawRoundTripMs, rawOpaqueRoundTripMs, clock: { createdAt } }
  }, echoUrl)
}

/** The frame's own Navigation and Resource Timing, on the clock both processes share (ms since the epoch). */
function firstAnswerPhases(frame: Frame, createdAt: number) {
  return frame.evaluate((createdAt) => {
    const origin = performance.timeOrigin
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
    const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[]
    const since = (t: number) => origin + t - createdAt
    const config = resources.find((r) => r.name.includes('/apps/config'))
    return {
      phaseNavigationMs: since(0),
      phaseDocumentMs: since(navigation.responseEnd),
      // The widget's code runs and asks for the app config: its first-route scripts are loaded and started.
      phaseScriptsMs: config ? since(config.startTime) : Number.NaN,
      phaseAppConfigMs: config ? since(config.responseEnd) : Number.NaN,
    }
  }, createdAt)
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

async function widgetFrame(page: Page): Promise<Frame> {
  for (let tries = 0; tries < 100; tries++) {
    const frame = page.frames().find((f) => f.url().includes('/widget/'))
    if (frame) return frame
    await page.waitForTimeout(50)
  }
  throw new Error('The wallet frame did not load')
}
