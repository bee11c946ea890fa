/** What the host SDK put in the frame URL. Nothing here is trusted: the origin is checked against app config. */
export type FrameParams = {
  appId: string
  env: 'sandbox' | 'production'
  hostOrigin: string | null
  theme: 'dark' | 'light'
  locale: 'en' | 'id'
  /** Chain ids the host asked for (a subset of the app's chains); empty means all of them. */
  chains: readonly number[]
}

export function readParams(url: URL, ancestorOrigins?: ArrayLike<string>): FrameParams {
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
  }
}
