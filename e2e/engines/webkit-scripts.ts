/**
 * Scripts the WebKit adapter runs in a document through WebDriver's Execute Script. They are sent
 * as text (not built with `new Function` in the page): the wallet's documents forbid eval in their
 * content security policy, and only the driver's own injection is exempt from it.
 */

/**
 * `find(selector)`: the first shown element a Selector names, or null. `text=Words`: a button,
 * link, heading, label, legend or summary whose whole text (as written, whitespace collapsed) is
 * the words. Shown: it has a box and is not `visibility: hidden`.
 */
const finder = `
const norm = (s) => String(s ?? '').replace(/\\s+/g, ' ').trim()
const shown = (el) => el.isConnected && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
const named = 'button,a,h1,h2,h3,h4,h5,h6,[role=heading],[role=button],[role=link],label,legend,summary'
const find = (selector) => {
  if (!selector.startsWith('text=')) return [...document.querySelectorAll(selector)].find(shown) ?? null
  const words = norm(selector.slice(5))
  return [...document.querySelectorAll(named)].find((el) => shown(el) && norm(el.textContent) === words) ?? null
}
`

/** (selector) → the element, or null. */
export const findScript = `${finder}\nreturn find(arguments[0])`

/**
 * (selector, scroll) → { found, enabled, text, width }; with `scroll`, a found element out of
 * view is first scrolled to the middle of its viewport (a pointer can only reach what is in view).
 */
export const inspectScript = `${finder}
const el = find(arguments[0])
if (!el) return { found: false, enabled: false, text: '' }
const box = el.getBoundingClientRect()
if (arguments[1] && (box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth)) el.scrollIntoView({ block: 'center', inline: 'center' })
const enabled = !el.disabled && el.getAttribute('aria-disabled') !== 'true' && !el.closest('fieldset:disabled')
return { found: true, enabled, text: (el.innerText ?? el.textContent ?? '').trim(), width: el.getBoundingClientRect().width }`

/** (element) → whether it (or what it labels) now has the focus. */
export const focusedScript = `const el = arguments[0]
const target = el.control ?? el
return document.activeElement === target || el.contains(document.activeElement)`

/** (element) → gives it the focus from script: only when a click did not. */
export const focusScript = `const el = arguments[0]; (el.control ?? el).focus()`

/** How long one Execute Async Script waits for a run to settle before it reports it pending. */
const waitMs = { start: 1000, poll: 500 }

const waiter = (ms: number) => `
const wait = (entry) => new Promise((resolve) => {
  const end = Date.now() + ${ms}
  const look = () => (entry.state !== 'pending' || Date.now() >= end ? resolve() : setTimeout(look, 20))
  look()
})
const report = (runs, id, entry) => {
  if (entry.state !== 'pending') delete runs[id]
  done({ state: entry.state, value: entry.value, message: entry.message })
}`

/**
 * (args, id) → { state: 'done', value } | { state: 'failed', message } | { state: 'pending' }.
 * Starts `body` as an async function of `args`; a run that outlives this call is kept on the
 * window under `id` for runPollScript, so a long run does not hold the driver (WebDriver runs one
 * command at a time) while the test clicks elsewhere.
 */
export const runStartScript = (body: string): string => `
const done = arguments[arguments.length - 1]
const input = arguments[0]
const id = arguments[1]
${waiter(waitMs.start)}
const runs = (window.__webkitEngineRuns = window.__webkitEngineRuns || {})
const entry = (runs[id] = { state: 'pending' })
const plain = (value) => (value === undefined ? null : JSON.parse(JSON.stringify(value)))
Promise.resolve(input)
  .then(async (args) => {
${body}
  })
  .then(
    (value) => Object.assign(entry, { state: 'done', value: plain(value) }),
    (error) => Object.assign(entry, { state: 'failed', message: error && error.message !== undefined ? String(error.message) : String(error) }),
  )
wait(entry).then(() => report(runs, id, entry))`

/** (id) → as runStartScript; { state: 'lost' } when the document that ran it is gone. */
export const runPollScript = `
const done = arguments[arguments.length - 1]
const id = arguments[0]
${waiter(waitMs.poll)}
const runs = window.__webkitEngineRuns
const entry = runs && runs[id]
if (!entry) done({ state: 'lost' })
else wait(entry).then(() => report(runs, id, entry))`

export type RunState = { state: 'done' | 'failed' | 'pending' | 'lost'; value?: unknown; message?: string }
export type Inspection = { found: boolean; enabled: boolean; text: string; width?: number }
