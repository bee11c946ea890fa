import { existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import puppeteer, { type Browser, type ElementHandle, type Frame, type Page } from 'puppeteer-core'
import type { Engine, LaunchEngine, Selector, Target, WaitOptions } from './engine.ts'
import { firstValue, locate, screenshotPath, shortly, untilTrue } from './locate.ts'

/**
 * Firefox ESR over WebDriver BiDi (puppeteer-core, no separate driver). A window the wallet frame
 * opens does not raise the tab's `popup` event here: windows are read from `browser.pages()`.
 */
export const firefoxPath = () => process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'

const frameSelector = '[data-testid=wallet-kit-frame]'

export const launchFirefox: LaunchEngine = async () => {
  const executablePath = firefoxPath()
  if (!existsSync(executablePath))
    throw new Error(`Firefox not found at ${executablePath}: run scripts/ensure-firefox.sh, or point FIREFOX_PATH at a Firefox binary`)
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath,
    protocol: 'webDriverBiDi',
    headless: true,
    defaultViewport: { width: 1280, height: 720 },
  })
  const main = (await browser.pages())[0] ?? (await browser.newPage())
  // The launch's defaultViewport does not reach the tab Firefox starts with (it stays 1366×682).
  await main.setViewport({ width: 1280, height: 720 })
  return new FirefoxEngine(browser, main)
}

class FirefoxEngine implements Engine {
  readonly name = 'firefox'
  constructor(
    private readonly browser: Browser,
    private readonly main: Page,
  ) {}

  async goto(url: string) {
    await this.main.goto(url, { waitUntil: 'load' })
  }

  async reload() {
    await this.main.reload({ waitUntil: 'load' })
  }

  /** The newest open window other than the main tab. */
  private async window(): Promise<Page | undefined> {
    const pages = (await this.browser.pages()).filter((p) => p !== this.main && !p.isClosed())
    return pages.at(-1)
  }

  /** The wallet frame of the main tab (the iframe element's document, whatever its URL). */
  private async frame(): Promise<Frame | undefined> {
    const element = await this.main.$(frameSelector)
    if (!element) return undefined
    try {
      return (await element.contentFrame()) ?? undefined
    } finally {
      await element.dispose()
    }
  }

  /** The document `target` names and the tab whose mouse reaches it. */
  private async context(target: Target): Promise<{ frame: Frame; page: Page }> {
    if (target === 'page') return { frame: this.main.mainFrame(), page: this.main }
    if (target === 'frame') {
      const frame = await this.frame()
      if (!frame) throw new Error(`No wallet frame (${frameSelector}) in the page`)
      return { frame, page: this.main }
    }
    const page = await this.window()
    if (!page) throw new Error('No window other than the main tab is open')
    return { frame: page.mainFrame(), page }
  }

  async run<T>(target: Target, body: string, ...args: unknown[]): Promise<T> {
    const { frame } = await this.context(target)
    const source = `(async (args) => {\n${body}\n})(${JSON.stringify(args)})`
    return (await frame.evaluate(source)) as T
  }

  /** The element `selector` names, shown, or null. */
  private async find(target: Target, selector: Selector): Promise<ElementHandle<Element> | null> {
    const { frame } = await this.context(target)
    const handle = await frame.evaluateHandle(locate(selector))
    const element = handle.asElement() as ElementHandle<Element> | null
    if (!element) await handle.dispose()
    return element
  }

  private async found(target: Target, selector: Selector, timeout = 15_000): Promise<ElementHandle<Element>> {
    let failure = ''
    const look = () =>
      this.find(target, selector).catch((error: Error) => {
        failure = `: ${error.message}`
        return null
      })
    return firstValue(look, timeout, `${target}: ${selector} never showed`).catch((error: Error) => {
      throw new Error(`${error.message}${failure}`)
    })
  }

  async waitFor(target: Target, selector: Selector, options: WaitOptions = {}) {
    const timeout = options.timeout ?? 15_000
    if (!options.hidden) return void (await (await this.found(target, selector, timeout)).dispose())
    await untilTrue(
      async () => {
        const element = await this.find(target, selector).catch(() => null)
        await element?.dispose()
        return element === null
      },
      timeout,
      `${target}: ${selector} still shown`,
    )
  }

  async text(target: Target, selector: Selector) {
    const element = await this.found(target, selector)
    try {
      return await element.evaluate((el) => (el.textContent ?? '').replace(/\s+/g, ' ').trim())
    } finally {
      await element.dispose()
    }
  }

  async click(target: Target, selector: Selector, options: { timeout?: number } = {}) {
    const timeout = options.timeout ?? 15_000
    const { page } = await this.context(target)
    const element = await this.found(target, selector, timeout)
    try {
      await element.scrollIntoView()
      const centre = async () => {
        const box = await element.boundingBox()
        if (!box) throw new Error(`${target}: ${selector} has no box`)
        return { x: box.x + box.width / 2, y: box.y + box.height / 2 }
      }
      // The pointer travels onto it (a gate counts the travel), then rests past the 500 ms gate.
      let at = await centre()
      await page.mouse.move(at.x - 24, at.y)
      await page.mouse.move(at.x, at.y, { steps: 4 })
      await shortly(600)
      let looks = 0
      await untilTrue(
        async () => {
          const enabled = await element.evaluate((el) => !(el as HTMLButtonElement).disabled && el.getAttribute('aria-disabled') !== 'true')
          if (!enabled && ++looks % 4 === 0) {
            // Still disarmed: the pointer keeps moving over it, as a hand does (a window raised meanwhile waits for a move).
            at = await centre()
            await page.mouse.move(at.x + 12, at.y, { steps: 3 })
            await page.mouse.move(at.x, at.y, { steps: 3 })
          }
          return enabled
        },
        timeout,
        `${target}: ${selector} never became enabled`,
      )
      at = await centre()
      await page.mouse.click(at.x, at.y)
    } finally {
      await element.dispose().catch(() => {})
    }
  }

  async type(target: Target, selector: Selector, text: string) {
    const element = await this.found(target, selector)
    try {
      await element.click()
      await element.type(text)
    } finally {
      await element.dispose()
    }
  }

  async waitForWindow(options: { timeout?: number } = {}) {
    const timeout = options.timeout ?? 15_000
    const page = await firstValue(() => this.window(), timeout, 'no other window opened')
    // A new window starts on about:blank (loaded at once) before its own URL.
    await untilTrue(
      async () => page.url() !== 'about:blank' && (await page.evaluate(() => document.readyState).catch(() => '')) === 'complete',
      timeout,
      'the other window never finished loading',
    )
  }

  async windowCount() {
    return (await this.browser.pages()).filter((p) => !p.isClosed()).length
  }

  async setViewport(width: number, height: number) {
    await this.main.setViewport({ width, height })
    return this.main.evaluate('({ width: innerWidth, height: innerHeight })') as Promise<{ width: number; height: number }>
  }

  async screenshot(target: 'page' | 'window', name: string) {
    const { page } = await this.context(target)
    const path = screenshotPath(this.name, name)
    mkdirSync(dirname(path), { recursive: true })
    await page.screenshot({ path: path as `${string}.png` })
    return path
  }

  async close() {
    await this.browser.close()
  }
}
