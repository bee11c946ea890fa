/** What the host SDK put in the frame URL. Nothing here is trusted: the origin is checked against app config. */
export type FrameParams = { appId: string; env: 'sandbox' | 'production'; hostOrigin: string | null }

export function readParams(url: URL, ancestorOrigins?: ArrayLike<string>): FrameParams {
  const env = url.searchParams.get('env') === 'production' ? 'production' : 'sandbox'
  // Chromium and Safari tell a frame who embeds it; elsewhere fall back to what the host claimed
  // (Penpal still checks every message's real origin against it).
  const hostOrigin = ancestorOrigins?.[0] ?? url.searchParams.get('origin')
  return { appId: url.searchParams.get('appId') ?? '', env, hostOrigin }
}
