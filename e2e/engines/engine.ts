/**
 * One real browser engine other than Chromium, driven from Node for the cross-engine suite
 * (e2e/engines/). Firefox ESR goes over WebDriver BiDi (puppeteer-core), WebKitGTK over W3C
 * WebDriver (selenium-webdriver with WebKitWebDriver and MiniBrowser under Xvfb). The scenarios are
 * written once against this type; each engine has one adapter.
 */
export type EngineName = 'firefox' | 'webkit'

/**
 * Where an action happens: the host page, the wallet frame in it (`[data-testid=wallet-kit-frame]`,
 * cross-origin), or the newest other window (the wallet's secure window).
 */
export type Target = 'page' | 'frame' | 'window'

/**
 * A CSS selector, or `text=Exact words` for the visible element (button, link, heading, label)
 * whose whole trimmed text is those words.
 */
export type Selector = string

export type WaitOptions = {
  /** ms; default 15 000. */
  timeout?: number
  /** Wait until no such element is shown (or none exists) instead. */
  hidden?: boolean
}

export interface Engine {
  readonly name: EngineName
  /** Opens `url` in the main tab. */
  goto(url: string): Promise<void>
  reload(): Promise<void>
  /**
   * Runs `body` (the body of an async function with one parameter `args`) in the target and
   * returns its awaited, JSON-serialisable result. A throw inside rejects with its message.
   */
  run<T>(target: Target, body: string, ...args: unknown[]): Promise<T>
  waitFor(target: Target, selector: Selector, options?: WaitOptions): Promise<void>
  /** The element's visible text (trimmed). */
  text(target: Target, selector: Selector): Promise<string>
  /**
   * A trusted pointer click, as a person gives it: the pointer travels onto the element, rests until
   * the element is enabled (the kit's Confirm gates wait 500 ms after the pointer arrives), then
   * clicks. Rejects if it never becomes enabled within the timeout.
   */
  click(target: Target, selector: Selector, options?: { timeout?: number }): Promise<void>
  /** Focuses the field with a click, then types `text` with real key events. */
  type(target: Target, selector: Selector, text: string): Promise<void>
  /** Waits for a window other than the main tab (the secure window) and returns once it has loaded. */
  waitForWindow(options?: { timeout?: number }): Promise<void>
  /** How many windows (tabs included) the browser has open. */
  windowCount(): Promise<number>
  /**
   * Sets the main tab's viewport (CSS px) as near as the browser allows, and returns what it is now:
   * MiniBrowser's toolbar keeps its window at least 447 px wide, so a phone's 390 px is not reachable
   * there (447 is still under the kit's 480 px phone layout).
   */
  setViewport(width: number, height: number): Promise<{ width: number; height: number }>
  /** Saves a PNG of the main tab or the secure window to test-results/engines/<engine>/<name>.png. */
  screenshot(target: 'page' | 'window', name: string): Promise<string>
  close(): Promise<void>
}

export type LaunchEngine = () => Promise<Engine>
