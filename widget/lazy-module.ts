/**
 * A part of the widget that loads when first needed (the frame's first chunk stays under its
 * budget), fetched in the background once the page has stopped calling for a while (`preloadAll`),
 * so that a page opened later, or a request confirmed after the network went down, does not wait
 * for it. Asking for a part (`get`) loads it at once, whatever the preloading is waiting for. A load
 * that failed is tried again next time.
 */
export function lazyModule<T>(load: () => Promise<T>): { get(): Promise<T> } {
  let loading: Promise<T> | undefined
  const get = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
  preloads.push(get)
  return { get }
}

const preloads: (() => Promise<unknown>)[] = []

/** How long the bridge must have taken no call before a part is fetched in the background. */
const quietMs = 300
/** A page that never stops calling for that long still gets the parts fetched, after this long. */
const patienceMs = 10_000
/** How many calls the bridge has taken: a count, cheaper on each call than reading the clock. */
let calls = 0

/**
 * The bridge took a call from the page. A dapp asks its first questions in a burst as it starts;
 * fetching and running the other parts' code then would hold each of those answers up.
 */
export function noteBridgeCall(): void {
  calls++
}

/**
 * Runs `fn` once the bridge has taken no call for `quietMs` and then the browser is idle (within
 * 2 s; 200 ms where requestIdleCallback is missing), or once the page has kept calling for
 * `patienceMs` without such a pause.
 */
export function whenQuiet(fn: () => void): void {
  const until = performance.now() + patienceMs
  const wait = (seen: number): void =>
    void setTimeout(() => {
      const quiet = () => calls === seen || performance.now() > until
      if (!quiet()) return wait(calls)
      const then = () => (quiet() ? fn() : wait(calls))
      if (typeof requestIdleCallback === 'function') requestIdleCallback(then, { timeout: 2000 })
      else setTimeout(then, 200)
    }, quietMs)
  wait(calls)
}

/**
 * Fetches every lazy part, one after the other, each in a quiet moment (`whenQuiet`): a call that
 * comes in puts the next part off (a part already being fetched finishes). Parts declared by a part
 * loaded meanwhile are fetched too. Nothing is fetched while `held` says so (a request waits for
 * the user: its own screen and its signing call must not share the network and the main thread
 * with pages nobody asked for).
 */
export function preloadAll(held?: () => boolean): void {
  let next = 0
  const step = () =>
    whenQuiet(() => {
      if (held?.()) return step()
      const preload = preloads[next++]
      if (preload)
        void preload()
          .catch(() => {})
          .then(step)
    })
  step()
}
