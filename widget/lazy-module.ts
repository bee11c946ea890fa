/**
 * A part of the widget that loads when first needed (the frame's first chunk stays under its
 * budget), fetched in the background once the frame has started (`preloadAll`), so that a page
 * opened later, or a request confirmed after the network went down, does not wait for it. A load
 * that failed is tried again next time.
 */
export function lazyModule<T>(load: () => Promise<T>): { get(): Promise<T>; preload(): void } {
  let loading: Promise<T> | undefined
  const get = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
  const preload = () => void get().catch(() => {})
  preloads.push(preload)
  return { get, preload }
}

const preloads: (() => void)[] = []

/** Runs `fn` once the browser is idle, and within `timeoutMs` at the latest (soon where requestIdleCallback is missing). */
export function whenIdle(fn: () => void, timeoutMs: number): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: timeoutMs })
  else setTimeout(fn, Math.min(timeoutMs, 200))
}

/** Fetches every lazy part once the browser is idle. */
export function preloadAll(): void {
  whenIdle(() => {
    for (const preload of preloads) preload()
  }, 2000)
}
