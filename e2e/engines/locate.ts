import { join } from 'node:path'

/**
 * The source of a function run in the page (a string: the test's compiler may add helpers to a
 * function's text that the page does not have): the first shown element `selector` names, or null.
 * A CSS selector, or `text=Exact words`: a button, link, heading, label, legend or summary whose
 * whole trimmed text is those words. Shown: it has a box, and is neither `visibility: hidden` nor
 * `display: none`.
 */
const locateSource = `(selector) => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
  const text = selector.startsWith('text=') ? selector.slice(5).trim() : undefined
  const candidates =
    text === undefined
      ? [...document.querySelectorAll(selector)]
      : [...document.querySelectorAll('button, a, h1, h2, h3, h4, h5, h6, [role=heading], [role=button], [role=link], label, legend, summary')].filter(
          (el) => (el.textContent ?? '').replace(/\\s+/g, ' ').trim() === text,
        )
  return candidates.find(shown) ?? null
}`

/** An expression for the page: the element `selector` names (see locateSource), or null. */
export const locate = (selector: string) => `(${locateSource})(${JSON.stringify(selector)})`

export const shortly = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Polls `check` every 100 ms until it answers true; rejects with `failure` after `timeout` ms. */
export async function untilTrue(check: () => Promise<boolean>, timeout: number, failure: string): Promise<void> {
  const end = Date.now() + timeout
  for (;;) {
    if (await check()) return
    if (Date.now() > end) throw new Error(`${failure} (within ${timeout} ms)`)
    await shortly(100)
  }
}

/** Polls `read` every 100 ms until it gives a value (not null or undefined); rejects as untilTrue. */
export async function firstValue<T>(read: () => Promise<T | null | undefined>, timeout: number, failure: string): Promise<T> {
  let value: T | null | undefined
  await untilTrue(
    async () => {
      value = await read()
      return value !== null && value !== undefined
    },
    timeout,
    failure,
  )
  return value as T
}

/** Where an engine's screenshot named `name` goes. */
export const screenshotPath = (engine: string, name: string) => join('test-results', 'engines', engine, `${name}.png`)
