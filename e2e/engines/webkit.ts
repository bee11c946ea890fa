import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Builder, By, type WebDriver, type WebElement } from 'selenium-webdriver'
import type { Engine, LaunchEngine, Selector, Target, WaitOptions } from './engine.ts'
import { miniBrowserPath, startWebkitProcesses, type WebkitProcesses } from './webkit-processes.ts'
import { findScript, focusedScript, focusScript, type Inspection, inspectScript, type RunState, runPollScript, runStartScript } from './webkit-scripts.ts'

const frameSelector = '[data-testid=wallet-kit-frame]'
const defaultTimeout = 15_000
/** The kit's Confirm gates stay disabled 500 ms after the pointer arrives: a person's pause is longer. */
const restMs = 600
const shotDir = join('test-results', 'engines', 'webkit')

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/**
 * WebKitGTK through WebKitWebDriver (W3C WebDriver, selenium-webdriver) and MiniBrowser under its
 * own Xvfb. WebDriver has one current browsing context per session, so every call enters its
 * target first, and calls take turns (`serial`): a run waiting in the page does not hold the
 * driver, it is polled between the other calls.
 */
class WebkitEngine implements Engine {
  readonly name = 'webkit' as const
  /** Window handles in the order they were first seen; the first is the main tab. */
  private readonly handles: string[]
  private turn: Promise<unknown> = Promise.resolve()
  private runs = 0
  private closed = false

  constructor(
    private readonly driver: WebDriver,
    private readonly processes: WebkitProcesses,
    main: string,
  ) {
    this.handles = [main]
  }

  private get main(): string {
    return this.handles[0]!
  }

  private serial<T>(step: () => Promise<T>): Promise<T> {
    const result = this.turn.then(() => {
      if (this.closed) throw new Error('WebKit engine is closed')
      return step()
    })
    this.turn = result.catch(() => undefined)
    return result
  }

  /** The newest window other than the main tab that is still open. */
  private async newestWindow(): Promise<string | undefined> {
    const open = await this.driver.getAllWindowHandles()
    for (const handle of open) if (!this.handles.includes(handle)) this.handles.push(handle)
    return this.handles.filter((h) => h !== this.main && open.includes(h)).pop()
  }

  /**
   * Makes `target` the driver's current browsing context and returns its window's handle; undefined
   * when it does not exist (yet). `handle` pins 'window' to one window (a run started there).
   */
  private async enter(target: Target, handle?: string): Promise<string | undefined> {
    if (target === 'window') {
      const window = handle ?? (await this.newestWindow())
      if (!window || (handle && !(await this.driver.getAllWindowHandles()).includes(handle))) return undefined
      await this.driver.switchTo().window(window)
      return window
    }
    await this.driver.switchTo().window(this.main)
    if (target === 'page') return this.main
    const frames = await this.driver.findElements(By.css(frameSelector))
    if (!frames[0]) return undefined
    await this.driver.switchTo().frame(frames[0])
    return this.main
  }

  private async enterOrThrow(target: Target): Promise<string> {
    const handle = await this.enter(target)
    if (handle) return handle
    throw new Error(`WebKit: no ${target === 'frame' ? 'wallet frame' : 'secure window'} is open`)
  }

  /** Polls `look` in `target` (each look one turn) until it returns a value; undefined on timeout. */
  private async poll<T>(target: Target, timeout: number, look: () => Promise<T | undefined>): Promise<T | undefined> {
    const deadline = Date.now() + timeout
    for (;;) {
      const seen = await this.serial(async () => {
        try {
          return (await this.enter(target)) ? await look() : undefined
        } catch {
          // The context went away under the look (a frame reloading, a window closing): look again.
          return undefined
        }
      })
      if (seen !== undefined) return seen
      if (Date.now() >= deadline) return undefined
      await sleep(100)
    }
  }

  private inspect(selector: Selector, scroll = false): Promise<Inspection> {
    return this.driver.executeScript<Inspection>(inspectScript, selector, scroll)
  }

  private async element(target: Target, selector: Selector, timeout = defaultTimeout): Promise<void> {
    const found = await this.poll(target, timeout, async () => ((await this.inspect(selector)).found ? true : undefined))
    if (!found) throw new Error(`WebKit: ${selector} not shown in the ${target} within ${timeout} ms`)
  }

  private async find(selector: Selector): Promise<WebElement> {
    const el = await this.driver.executeScript<WebElement | null>(findScript, selector)
    if (!el) throw new Error(`WebKit: ${selector} is gone`)
    return el
  }

  /** The pointer travels onto the element's middle in small moves, from its left part. */
  private async travel(selector: Selector): Promise<void> {
    const { width = 0 } = await this.inspect(selector, true)
    const el = await this.find(selector)
    const from = Math.max(0, Math.min(24, Math.floor(width / 2) - 2))
    let actions = this.driver.actions({ async: true })
    for (const x of [-from, -Math.round((from * 2) / 3), -Math.round(from / 3), 0]) actions = actions.move({ origin: el, x, y: 0, duration: 40 })
    await actions.perform()
  }

  async goto(url: string): Promise<void> {
    await this.serial(async () => {
      await this.enterOrThrow('page')
      await this.driver.get(url)
    })
  }

  async reload(): Promise<void> {
    await this.serial(async () => {
      await this.enterOrThrow('page')
      await this.driver.navigate().refresh()
    })
  }

  async run<T>(target: Target, body: string, ...args: unknown[]): Promise<T> {
    const id = `run-${++this.runs}`
    let handle: string | undefined
    let state = await this.serial(async () => {
      handle = await this.enterOrThrow(target)
      try {
        return await this.driver.executeAsyncScript<RunState>(runStartScript(body), args, id)
      } catch (error) {
        // A syntax error in the body, or a value WebDriver cannot carry.
        return { state: 'failed', message: message(error) } as RunState
      }
    })
    while (state.state === 'pending') {
      state = await this.serial(async () => {
        if (!(await this.enter(target, handle))) return { state: 'lost' } as RunState
        return this.driver.executeAsyncScript<RunState>(runPollScript, id)
      })
    }
    if (state.state === 'failed') throw new Error(state.message)
    if (state.state === 'lost') throw new Error(`WebKit: the ${target}'s document went away before the run settled`)
    return state.value as T
  }

  async waitFor(target: Target, selector: Selector, options: WaitOptions = {}): Promise<void> {
    const timeout = options.timeout ?? defaultTimeout
    if (!options.hidden) return this.element(target, selector, timeout)
    const gone = await this.poll(target, timeout, async () => ((await this.inspect(selector)).found ? undefined : true))
    if (!gone) throw new Error(`WebKit: ${selector} still shown in the ${target} after ${timeout} ms`)
  }

  async text(target: Target, selector: Selector): Promise<string> {
    const seen = await this.poll(target, defaultTimeout, async () => {
      const { found, text } = await this.inspect(selector)
      return found ? text : undefined
    })
    if (seen === undefined) throw new Error(`WebKit: ${selector} not shown in the ${target} within ${defaultTimeout} ms`)
    return seen
  }

  async click(target: Target, selector: Selector, options: { timeout?: number } = {}): Promise<void> {
    const timeout = options.timeout ?? defaultTimeout
    const deadline = Date.now() + timeout
    await this.element(target, selector, timeout)
    await this.serial(async () => {
      await this.enterOrThrow(target)
      await this.travel(selector)
      await sleep(restMs)
      for (let look = 1; ; look++) {
        const { found, enabled } = await this.inspect(selector, true)
        if (found && enabled) {
          const el = await this.find(selector)
          await this.driver.actions({ async: true }).move({ origin: el }).press().release().perform()
          return
        }
        if (Date.now() >= deadline) throw new Error(`WebKit: ${selector} in the ${target} not enabled within ${timeout} ms`)
        // Still disarmed: the pointer keeps moving over it, as a waiting hand does.
        if (found && look % 3 === 0) {
          const el = await this.find(selector)
          const dx = look % 2 ? 6 : -6
          await this.driver.actions({ async: true }).move({ origin: el, x: dx, y: 0, duration: 40 }).move({ origin: el, duration: 40 }).perform()
        }
        await sleep(200)
      }
    })
  }

  async type(target: Target, selector: Selector, text: string): Promise<void> {
    await this.element(target, selector)
    await this.serial(async () => {
      await this.enterOrThrow(target)
      await this.inspect(selector, true)
      const el = await this.find(selector)
      await this.driver.actions({ async: true }).move({ origin: el }).press().release().perform()
      // Keys go to the focused element: WebKitWebDriver cannot send them to an element in a frame.
      if (!(await this.driver.executeScript<boolean>(focusedScript, el))) await this.driver.executeScript(focusScript, el)
      await this.driver.actions({ async: true }).sendKeys(text).perform()
    })
  }

  async waitForWindow(options: { timeout?: number } = {}): Promise<void> {
    const timeout = options.timeout ?? defaultTimeout
    const loaded = await this.poll('window', timeout, async () =>
      (await this.driver.executeScript<string>('return document.readyState')) === 'complete' ? true : undefined,
    )
    if (!loaded) throw new Error(`WebKit: no other window loaded within ${timeout} ms`)
  }

  async windowCount(): Promise<number> {
    return this.serial(async () => (await this.driver.getAllWindowHandles()).length)
  }

  async setViewport(width: number, height: number): Promise<{ width: number; height: number }> {
    return this.serial(async () => {
      await this.enterOrThrow('page')
      const win = this.driver.manage().window()
      // The window's size includes MiniBrowser's toolbar: size it by what the page measures.
      let inner = { w: 0, h: 0 }
      for (let attempt = 0; attempt < 4; attempt++) {
        inner = await this.driver.executeScript<{ w: number; h: number }>('return { w: innerWidth, h: innerHeight }')
        if (inner.w === width && inner.h === height) break
        const outer = await win.getRect()
        await win.setRect({ width: outer.width + width - inner.w, height: outer.height + height - inner.h })
        await sleep(100)
      }
      inner = await this.driver.executeScript<{ w: number; h: number }>('return { w: innerWidth, h: innerHeight }')
      return { width: inner.w, height: inner.h }
    })
  }

  async screenshot(target: 'page' | 'window', name: string): Promise<string> {
    const png = await this.serial(async () => {
      await this.enterOrThrow(target)
      return this.driver.takeScreenshot()
    })
    await mkdir(shotDir, { recursive: true })
    const path = join(shotDir, `${name}.png`)
    await writeFile(path, png, 'base64')
    return path
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await Promise.race([this.driver.quit().catch(() => undefined), sleep(5000)])
    await this.processes.kill()
  }
}

/** Starts Xvfb, WebKitWebDriver and a MiniBrowser session; kills all of them if any step fails. */
export const launchWebkit: LaunchEngine = async () => {
  const processes = await startWebkitProcesses()
  try {
    const driver = await new Builder()
      .usingServer(processes.driverUrl)
      .withCapabilities({
        browserName: 'MiniBrowser',
        'webkitgtk:browserOptions': { binary: miniBrowserPath, args: ['--automation'] },
      })
      .build()
    try {
      await driver.manage().setTimeouts({ script: 30_000, pageLoad: 60_000 })
      return new WebkitEngine(driver, processes, await driver.getWindowHandle())
    } catch (error) {
      await driver.quit().catch(() => undefined)
      throw error
    }
  } catch (error) {
    await processes.kill()
    throw error
  }
}
