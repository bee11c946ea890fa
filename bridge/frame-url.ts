/**
 * The wallet frame's URL, written once: the host builds it, the frame reads it. Nothing in it is
 * trusted for access: the frame checks the host origin against the app's config, and Penpal checks
 * every message's real origin.
 */
export type FrameParams = {
  appId: string
  env: 'sandbox' | 'production'
  /** Who embeds the frame; null when neither the browser nor the URL says. */
  hostOrigin: string | null
  theme: 'dark' | 'light'
  locale: 'en' | 'id'
  /** Chain ids the host asked for (a subset of the app's chains); empty means all of them. */
  chains: readonly number[]
  /**
   * 'popup': every sign-in and confirmation happens in the secure window (a first-party popup on the
   * provider origin); 'frame' (the default): only those the frame cannot protect.
   */
  mode: 'frame' | 'popup'
  /** Set only on the secure window's own URL (the frame builds it, `secureWindowUrl`). */
  secureWindow: boolean
}

/** The frame URL on the provider origin, for a page on `origin`. */
export const buildFrameUrl = (
  {
    providerOrigin,
    appId,
    env,
    theme,
    locale,
    chains,
    mode,
  }: Omit<FrameParams, 'hostOrigin' | 'secureWindow' | 'mode'> & {
    providerOrigin: string
    mode?: FrameParams['mode'] | undefined
  },
  origin: string,
): string => `${providerOrigin}/widget/?${new URLSearchParams({ appId, env, theme, locale, chains: chains.join(), origin, ...(mode === 'popup' && { mode }) })}`

/**
 * The secure window's URL, built by the frame from its own params. The channel name goes in the
 * fragment: never sent to a server, never in a Referer.
 */
export const secureWindowUrl = (frame: FrameParams & { providerOrigin: string }, channel: string): string =>
  `${buildFrameUrl({ ...frame, mode: 'popup' }, frame.hostOrigin ?? '')}&window=secure#channel=${channel}`

/** What the host put in the frame URL; anything outside the known values falls back to the default. */
export function readFrameUrl(url: URL, ancestorOrigins?: ArrayLike<string>): FrameParams {
  const q = url.searchParams
  // Chromium and Safari tell a frame who embeds it; elsewhere fall back to what the host claimed
  // (Penpal still checks every message's real origin against it).
  const hostOrigin = ancestorOrigins?.[0] ?? q.get('origin')
  const chains = (q.get('chains') ?? '')
    .split(',')
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0)
  return {
    appId: q.get('appId') ?? '',
    env: q.get('env') === 'production' ? 'production' : 'sandbox',
    hostOrigin,
    theme: q.get('theme') === 'light' ? 'light' : 'dark',
    locale: q.get('locale') === 'id' ? 'id' : 'en',
    chains,
    mode: q.get('mode') === 'popup' ? 'popup' : 'frame',
    secureWindow: q.get('window') === 'secure',
  }
}
