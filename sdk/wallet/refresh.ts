import type { Context } from '../config.ts'
import { SdkError, messages } from '../errors.ts'
import { request } from '../http.ts'
import type { TokenHolder } from '../tokens.ts'
import { walletHeaders } from './headers.ts'
import type { TokenPair } from './types.ts'

/**
 * Refreshes keyed by the refresh token they spend. Refresh tokens rotate, so a spent token can
 * never be refreshed twice: every caller holding it (concurrent 401s, a caller that arrives
 * just after) gets the same new pair. Kept per token holder so clients sharing one share this too.
 */
const inFlight = new WeakMap<TokenHolder, Map<string, Promise<TokenPair>>>()
const memoSize = 32

/** POST wallet/refresh { refreshToken } → the new pair, stored in the holder when it held the old one. */
export function refreshTokens(ctx: Context, refreshToken: string): Promise<TokenPair> {
  let byToken = inFlight.get(ctx.tokens)
  if (!byToken) {
    byToken = new Map()
    inFlight.set(ctx.tokens, byToken)
  }
  const known = byToken.get(refreshToken)
  if (known) return known

  const promise = run(ctx, refreshToken)
  byToken.set(refreshToken, promise)
  if (byToken.size > memoSize) byToken.delete(byToken.keys().next().value as string)
  promise.catch(() => byToken.delete(refreshToken))
  return promise
}

async function run(ctx: Context, refreshToken: string): Promise<TokenPair> {
  const heldBefore = ctx.tokens.get().refreshToken === refreshToken
  try {
    // Not tied to any caller's AbortSignal: the result is shared.
    const spend = () =>
      request<TokenPair>({
        fetch: ctx.fetch,
        baseUrl: ctx.baseUrls.wallet,
        method: 'POST',
        path: '/wallet/refresh',
        headers: walletHeaders(ctx, undefined),
        body: { kind: 'json', value: { refreshToken } },
      })
    const coordinate = ctx.config.coordinateRefresh
    const pair = coordinate ? await coordinate(refreshToken, spend) : await spend()
    if (!pair?.walletToken || !pair.refreshToken) throw new Error('Refresh answer carries no token pair')
    if (heldBefore) ctx.tokens.set({ walletToken: pair.walletToken, refreshToken: pair.refreshToken })
    return pair
  } catch (error) {
    // A failed refresh ends the session: the wallet token, refresh token and address go.
    if (ctx.tokens.get().refreshToken === refreshToken) ctx.tokens.clear(['walletToken', 'refreshToken', 'address'])
    throw new SdkError(messages.refreshFailed, {
      code: 'TOKEN_REFRESH_FAILED',
      details: error instanceof SdkError ? error.details : undefined,
      cause: error,
    })
  }
}
