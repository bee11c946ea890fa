import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { Session } from 'node:inspector/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type CDPSession, chromium, type Frame, type Locator, type Page } from 'playwright'
import { chromiumLaunch } from '../../e2e/chromium.ts'
import type { createSandbox as CreateSandbox } from '../../sandbox/server.ts'
import type { EIP1193Provider } from '../../host-sdk/provider.ts'

/**
 * The browser half of scripts/bench/path-count.ts, run under the browser suites' lock: one tree's
 * sandbox (in this process, serving the builds in --dist), a host page on another origin, one user
 * signed up in the wallet frame, then V8 precise coverage (call counts) on the host page, the wallet
 * frame and this process (the sandbox) around an idle window and around one personal_sign, once
 * the page's network has been quiet for 3 s.
 * Writes the raw counts (functions called, by script) to --out; path-count.ts maps them to files.
 *   npx tsx scripts/bench/path-run.ts --repo DIR --dist DIR --out FILE
 */
type V8Function = { functionName: string; ranges: { startOffset: number; endOffset: number; count: number }[] }
type V8Script = { url: string; functions: V8Function[] }
export type RawFunction = { start: number; end: number; count: number }
export type RawWindow = { browser: { side: 'host' | 'frame'; url: string; functions: RawFunction[] }[]; node: string[]; ms: number }
export type RawRun = { providerUrl: string; idle: RawWindow; sign: RawWindow; confirmedIn: 'frame' }

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`)
  const value = at > 0 ? process.argv[at + 1] : undefined
  if (!value) throw new Error(`usage: npx tsx scripts/bench/path-run.ts --repo DIR --dist DIR --out FILE (missing --${name})`)
  return resolve(value)
}
const repo = arg('repo')
const distDir = arg('dist')
const out = arg('out')
const idleMs = 3000
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

const dataDir = mkdtempSync(join(tmpdir(), 'wallet-kit-path-'))
const { createSandbox } = (await import(join(repo, 'sandbox', 'server.ts'))) as { createSandbox: typeof CreateSandbox }
const sandbox = await createSandbox({ port: 0, anvilPort: 0, dataDir, distDir })
const host = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>host</title><p>host page</p>'))
await new Promise<void>((done) => host.listen(0, '127.0.0.1', done))
const hostUrl = `http://127.0.0.1:${(host.address() as { port: number }).port}/`
const browser = await chromium.launch(chromiumLaunch)
const node = new Session()

try {
  const page = await browser.newPage()
  // tsx names the functions it compiles with a helper the page does not have.
  await page.addInitScript('window.__name = (f) => f')
  await page.goto(hostUrl)
  await page.addScriptTag({ url: `${sandbox.url}/kit.js` })
  await page.evaluate(() => {
    const kit = window.WalletKit!.createWalletKit({ appId: 'demo' })
    void kit.provider.request({ method: 'eth_requestAccounts' })
  })
  const frameEl = page.locator('[data-testid=wallet-kit-frame]')
  const inFrame = page.frameLocator('[data-testid=wallet-kit-frame]')
  const email = `path-${Date.now()}@example.com`
  await inFrame.getByPlaceholder('Enter your email').fill(email)
  await inFrame.getByRole('button', { name: 'Continue', exact: true }).click()
  await inFrame.getByLabel('Verification code').fill(await latestCode(sandbox.url, email))
  await inFrame.getByRole('button', { name: 'Done' }).click()
  await frameEl.waitFor({ state: 'hidden' })
  // The dapp holds its provider, as one does once it has connected: the sign starts at provider.request,
  // not at the script tag's WalletKit.kit getter (host-sdk/script.ts), which the window would otherwise count.
  const account = await page.evaluate(async () => {
    const w = window as unknown as { __provider: EIP1193Provider }
    w.__provider = window.WalletKit!.kit!.provider
    return ((await w.__provider.request({ method: 'eth_accounts' })) as string[])[0]
  })
  if (!account) throw new Error('Signed up but eth_accounts is empty')

  // The frame fetches its other pages in the background after a sign-in, one per quiet moment (up
  // to 2 s apart): the windows start once no request has begun for 3 s (at most 60 s), or a late
  // preload counts as the sign's.
  let lastRequest = Date.now()
  page.on('request', () => (lastRequest = Date.now()))
  for (const until = Date.now() + 60_000; Date.now() - lastRequest < 3000 && Date.now() < until; ) await sleep(100)

  const frame = walletFrame(page)
  const targets = { host: await page.context().newCDPSession(page), frame: await page.context().newCDPSession(frame) }
  node.connect()
  const start = async (post: (method: string, params?: object) => Promise<unknown>) => {
    await post('Profiler.enable')
    await post('Profiler.startPreciseCoverage', { callCount: true, detailed: false })
  }
  await start((m, p) => targets.host.send(m as 'Profiler.enable', p))
  await start((m, p) => targets.frame.send(m as 'Profiler.enable', p))
  await start((m, p) => node.post(m as 'Profiler.enable', p))
  const take = async (ms: number): Promise<RawWindow> => ({
    browser: [...(await browserScripts('host', targets.host)), ...(await browserScripts('frame', targets.frame))],
    node: nodeFiles(((await node.post('Profiler.takePreciseCoverage')) as { result: V8Script[] }).result),
    ms,
  })
  // Counts so far are dropped: each take resets them.
  await take(0)
  await sleep(idleMs)
  const idle = await take(idleMs)

  const began = Date.now()
  await page.evaluate((account) => {
    const w = window as unknown as { __provider: EIP1193Provider; __signed: Promise<unknown> }
    w.__signed = w.__provider.request({ method: 'personal_sign', params: ['0x68656c6c6f20776f726c64', account] as never })
  }, account)
  await inFrame.getByRole('heading', { name: 'Sign Message' }).waitFor()
  const confirm = inFrame.getByRole('button', { name: 'Confirm' })
  if (!(await confirm.isVisible()))
    throw new Error('This tree asks for the secure window for a plain-text personal_sign: only in-frame confirmations are counted')
  await pressWhenArmed(page, confirm)
  const signature = await page.evaluate(() => (window as unknown as { __signed: Promise<unknown> }).__signed)
  if (typeof signature !== 'string' || !/^0x[0-9a-f]{130}$/i.test(signature)) throw new Error(`No signature: ${JSON.stringify(signature)}`)
  const sign = await take(Date.now() - began)
  const raw: RawRun = { providerUrl: sandbox.url, idle, sign, confirmedIn: 'frame' }
  writeFileSync(out, JSON.stringify(raw))
} finally {
  node.disconnect()
  await browser.close()
  host.close()
  await sandbox.close()
  rmSync(dataDir, { recursive: true, force: true })
}

function walletFrame(page: Page): Frame {
  const frame = page.frames().find((f) => f.url().includes('/widget/'))
  if (!frame) throw new Error('The wallet frame is not in the page')
  return frame
}

/** The provider origin's scripts (kit.js, the frame's chunks) with the functions that ran. */
async function browserScripts(side: 'host' | 'frame', session: CDPSession) {
  const { result } = (await session.send('Profiler.takePreciseCoverage')) as unknown as { result: V8Script[] }
  return result
    .filter((script) => script.url.startsWith(sandbox.url) && new URL(script.url).pathname.endsWith('.js'))
    .map((script) => ({
      side,
      url: script.url,
      functions: script.functions.flatMap((fn) => fn.ranges.slice(0, 1).map((r) => ({ start: r.startOffset, end: r.endOffset, count: r.count }))),
    }))
}

/** The tree's own files (not this script's, not dependencies) in which this process ran a function. */
function nodeFiles(scripts: V8Script[]): string[] {
  const files = new Set<string>()
  for (const script of scripts) {
    if (!script.url.startsWith('file://') || !script.functions.some((fn) => fn.ranges.some((r) => r.count > 0))) continue
    const path = fileURLToPath(script.url.split('?')[0]!)
    const inTree = path.startsWith(`${repo}/`) && !path.includes('/node_modules/')
    if (inTree && !/^(scripts|e2e)\//.test(path.slice(repo.length + 1))) files.add(path)
  }
  return [...files].sort()
}

/**
 * Clicks Confirm as a person does: the pointer comes in and rests on it until the confirm gate arms
 * it (the button stays disabled for a moment after the pointer enters, so a frame moved under a
 * waiting pointer cannot take its click), then clicks.
 */
async function pressWhenArmed(page: Page, button: Locator) {
  const box = (await button.boundingBox())!
  const x = box.x + box.width / 2
  const y = box.y + box.height / 2
  await page.mouse.move(x - 24, y)
  await page.mouse.move(x, y, { steps: 4 })
  const armed = () =>
    button.evaluate((b: HTMLButtonElement) => new Promise<boolean>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(!b.disabled)))))
  for (let tries = 0; !(await armed()); tries++) {
    if (tries > 50) throw new Error('Confirm never armed')
    await page.mouse.move(x + (tries % 2 ? 6 : -6), y, { steps: 2 })
    await sleep(100)
  }
  await button.click()
}

async function latestCode(providerUrl: string, to: string): Promise<string> {
  for (let tries = 0; tries < 100; tries++) {
    const [message] = (await (await fetch(`${providerUrl}/dev/api/inbox?to=${encodeURIComponent(to)}`)).json()) as { code?: string }[]
    if (message?.code) return message.code
    await sleep(100)
  }
  throw new Error(`No login code for ${to}`)
}
