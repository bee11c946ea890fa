import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright'
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
 * - bridge call: one eth_chainId answered by the frame, beside a raw postMessage round trip to an
 *   opaque-origin (sandboxed srcdoc) frame in the same page: the cost of the bridge's checks.
 */
export async function browserTimings(options: { runs: number; log: (line: string) => void }) {
  const dataDir = mkdtempSync(join(tmpdir(), 'wallet-kit-bench-'))
  const sandbox = await createSandbox({ port: 8787, anvilPort: 0, dataDir })
  const hostPort = await freePort()
  const host = await serveExamples({ roots: ['dist/examples', 'examples'], host: '127.0.0.1', port: hostPort })
  const browser = await chromium.launch(chromiumLaunch)
  const samples = { handshakeMs: [] as number[], modalVisibleMs: [] as number[], bridgeCallMs: [] as number[], rawRoundTripMs: [] as number[] }
  try {
    for (let run = 0; run < options.runs; run++) {
      const page = await browser.newPage()
      // tsx names the functions it compiles with a helper the page does not have.
      await page.addInitScript('window.__name = (f) => f')
      // A page of the host origin with nothing of ours on it yet (the examples server's 404 page).
      await page.goto(`http://127.0.0.1:${hostPort}/bench-blank`)
      await page.addScriptTag({ url: `${sandbox.url}/kit.js` })
      const measured = await measureInPage(page)
      for (const key of Object.keys(samples) as (keyof typeof samples)[]) samples[key].push(measured[key])
      await page.close()
      options.log(`browser run ${run + 1}/${options.runs}: handshake ${measured.handshakeMs.toFixed(0)} ms`)
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

function measureInPage(page: Page) {
  return page.evaluate(async () => {
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

    const rounds = 50
    start = performance.now()
    for (let i = 0; i < rounds; i++) await kit.provider.request({ method: 'eth_chainId' })
    const bridgeCallMs = (performance.now() - start) / rounds

    // An opaque-origin frame that answers every message on a MessageChannel port.
    const echo = document.createElement('iframe')
    echo.setAttribute('sandbox', 'allow-scripts')
    echo.srcdoc = '<script>onmessage = (e) => { const port = e.ports[0]; port.onmessage = (m) => port.postMessage(m.data) }</script>'
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
    start = performance.now()
    for (let i = 0; i < rounds; i++) await ask({ jsonrpc: '2.0', id: i, method: 'eth_chainId' })
    const rawRoundTripMs = (performance.now() - start) / rounds
    return { handshakeMs, modalVisibleMs, bridgeCallMs, rawRoundTripMs }
  })
}
