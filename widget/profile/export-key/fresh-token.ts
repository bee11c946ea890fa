import type { Context } from '../../../sdk/config.ts'
import { refreshTokens } from '../../../sdk/http.ts'

/** How long the secure window may still need the token after the handoff: its load and its one call. */
const marginMs = 2 * 60_000

/** When a compact JWT expires (ms since the epoch), or null when its payload cannot be read. */
function expiresAt(token: string): number | null {
  try {
    const payload = JSON.parse(atob((token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/'))) as { exp?: unknown }
    return typeof payload.exp === 'number' ? payload.exp * 1000 : null
  } catch {
    return null
  }
}

/**
 * The session's wallet token to hand to the secure window: refreshed first (the frame's own,
 * shared refresh) when it would lapse before the window's call, for the window cannot refresh it.
 * Null when the session is gone.
 */
export async function walletTokenForWindow(ctx: Context, now = Date.now()): Promise<string | null> {
  const { walletToken, refreshToken } = ctx.tokens.get()
  if (!walletToken) return null
  const exp = expiresAt(walletToken)
  if (exp === null || exp - now > marginMs || !refreshToken) return walletToken
  return (await refreshTokens(ctx, refreshToken)).walletToken
}
