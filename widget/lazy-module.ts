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

/** Fetches every lazy part once the browser is idle (or soon, where requestIdleCallback is missing). */
export function preloadAll(): void {
  const run = () => {
    for (const preload of preloads) preload()
  }
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 2000 })
  else setTimeout(run, 200)
}
