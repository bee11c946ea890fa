import type { Browser, Frame, Page } from 'playwright'
import type { Target } from './target.ts'

/** One run's figures for one side, all in ms (NaN: not seen this run). */
export type Sample = {
  /** createWalletKit() on a page where kit.js has already loaded → the first eth_chainId answered. */
  handshakeMs: number
  /** A page with kit.js in a script tag: the page's start (its navigation) → the first answer. */
  scriptTagMs: number
  /** kit.open() right after that first answer → the frame shown. */
  modalVisibleMs: number
  /** One eth_chainId, the mean of those asked one after the other in the first second after the first answer. */
  firstSecondCallMs: number
  /** One eth_chainId in steady state: the mean of 200. */
  bridgeCallMs: number
  /** One raw MessageChannel round trip to a frame of another site, the same page: the mean of 200. */
  rawRoundTripMs: number
  /** The same to an opaque-origin srcdoc frame (which Chromium may keep in the page's process). */
  rawOpaqueRoundTripMs: number
  /**
   * The floor under handshakeMs, with none of our code: a fresh page creates a frame of another site
   * (bench-echo.html, a one-line script that answers on a MessageChannel) → its first answer.
   */
  floorMs: number
  /** From createWalletKit(), in the frame's own timings: its navigation starts, its document arrived. */
  phaseNavigationMs: number
  phaseDocumentMs: number
  /** … its document parsed (domInteractive): the frame's own code cannot run before. */
  phaseParsedMs: number
  /** … its code asked for the app config, the app config arrived (NaN if it was not fetched). */
  phaseAppConfigAskedMs: number
  phaseAppConfigMs: number
}

const timeoutMs = 30_000

/** Both pages of one run for one side, each in a fresh browser context (nothing cached, nothing stored). */
export async function measure(browser: Browser, target: Target): Promise<Sample> {
  const kit = await kitPage(browser, target)
  const tag = await scriptTagPage(browser, target)
  const floorMs = await floorPage(browser, target)
  return { ...kit, ...tag, floorMs }
}

/** A fresh page's first frame of another site, which answers at once: created → its first answer. */
async function floorPage(browser: Browser, target: Target): Promise<number> {
  const page = await freshPage(browser)
  try {
    await page.goto(`${target.hostUrl}/bench-blank`)
    return await page.evaluate(async (echoUrl) => {
      const start = performance.now()
      const echo = document.createElement('iframe')
      echo.src = echoUrl
      await new Promise((resolve) => {
        echo.onload = resolve
        document.body.append(echo)
      })
      const channel = new MessageChannel()
      const answered = new Promise((resolve) => (channel.port1.onmessage = resolve))
      echo.contentWindow!.postMessage('port', '*', [channel.port2])
      channel.port1.postMessage({ jsonrpc: '2.0', id: 0, method: 'eth_chainId' })
      await answered
      return performance.now() - start
    }, echoUrl(target))
  } finally {
    await page.context().close()
  }
}

const echoUrl = (target: Target) => `${target.hostUrl.replace('127.0.0.1', 'localhost')}/bench-echo.html`

async function freshPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage()
  // tsx names the functions it compiles with a helper the page does not have.
  await page.addInitScript('window.__name = (f) => f')
  return page
}

/** kit.js already loaded: createWalletKit() → first answer, the first second's calls, then steady state. */
async function kitPage(browser: Browser, target: Target) {
  const page = await freshPage(browser)
  try {
    // A page of the host origin with nothing of ours on it yet.
    await page.goto(`${target.hostUrl}/bench-blank`)
    await page.addScriptTag({ url: `${target.providerUrl}/kit.js` })
    const { createdAt, ...measured } = await page.evaluate(
      async ({ echoUrl, timeoutMs }) => {
        const within = <T>(what: string, promise: Promise<T>) =>
          Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer in ${timeoutMs} ms`)), timeoutMs))])
        const chainId = () => kit.provider.request({ method: 'eth_chainId' })
        const start = performance.now()
        const createdAt = performance.timeOrigin + start
        const kit = window.WalletKit!.createWalletKit({ appId: 'demo' })
        await within('first eth_chainId', chainId())
        const answeredAt = performance.now()
        // The first second after the first answer: what a dapp asks as it starts, while the frame
        // may still be loading the rest of itself.
        let calls = 0
        while (performance.now() - answeredAt < 1000) {
          await within('eth_chainId', chainId())
          calls++
        }
        const firstSecondCallMs = (performance.now() - answeredAt) / calls
        // Steady state: both sides settled and warm, as for the raw round trips below.
        await new Promise((resolve) => setTimeout(resolve, 500))
        for (let i = 0; i < 20; i++) await chainId()
        const rounds = 200
        let began = performance.now()
        for (let i = 0; i < rounds; i++) await chainId()
        const bridgeCallMs = (performance.now() - began) / rounds
        // A frame that answers every message on a MessageChannel port.
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
          for (let i = 0; i < 20; i++) await ask({ warm: true })
          began = performance.now()
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
        return { createdAt, handshakeMs: answeredAt - start, firstSecondCallMs, bridgeCallMs, rawRoundTripMs, rawOpaqueRoundTripMs }
      },
      { echoUrl: echoUrl(target), timeoutMs },
    )
    return { ...measured, ...(await firstAnswerPhases(await widgetFrame(page), createdAt)) }
  } finally {
    await page.context().close()
  }
}

/** kit.js by script tag (scripts/bench/pages/bench-script-tag.html): page start → first answer, then open() → shown. */
async function scriptTagPage(browser: Browser, target: Target) {
  const page = await freshPage(browser)
  try {
    // The answer's time is taken in the page as it arrives (bench-script-tag.html), whenever it is read here.
    await page.goto(`${target.hostUrl}/bench-script-tag.html`, { waitUntil: 'domcontentloaded' })
    return await page.evaluate(async (timeoutMs) => {
      const answered = (window as unknown as { __firstAnswer: Promise<number> }).__firstAnswer
      const scriptTagMs = await Promise.race([answered, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no first answer')), timeoutMs))])
      const frame = document.querySelector('[data-testid=wallet-kit-frame]') as HTMLElement
      const start = performance.now()
      const shown = new Promise<number>((resolve) => {
        const observer = new MutationObserver(() => {
          if (!frame.getAttribute('style')?.includes('display:none')) {
            observer.disconnect()
            resolve(performance.now() - start)
          }
        })
        observer.observe(frame, { attributes: true, attributeFilter: ['style'] })
      })
      window.WalletKit!.kit!.open()
      return { scriptTagMs, modalVisibleMs: await shown }
    }, timeoutMs)
  } finally {
    await page.context().close()
  }
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
      phaseParsedMs: since(navigation.domInteractive),
      phaseAppConfigAskedMs: config ? since(config.startTime) : Number.NaN,
      phaseAppConfigMs: config ? since(config.responseEnd) : Number.NaN,
    }
  }, createdAt)
}

export async function widgetFrame(page: Page): Promise<Frame> {
  for (let tries = 0; tries < 100; tries++) {
    const frame = page.frames().find((f) => f.url().includes('/widget/'))
    if (frame) return frame
    await page.waitForTimeout(50)
  }
  throw new Error('The wallet frame did not load')
}
