import type { CallOptions, Context } from '../config.ts'
import { SdkError } from '../errors.ts'
import { type Body, type Method, request } from '../http.ts'
import { walletHeaders } from './headers.ts'
import { refreshTokens } from './refresh.ts'
import type { RefreshedTokens, TokenArgs, TokenPair } from './types.ts'

export type WalletCall = {
  method?: Method
  path: string
  body?: Body
  /** Token sent as bearer; undefined sends none. */
  bearer?: string
}

/** One wallet-service call with the context's headers. */
export function walletRequest<T>(ctx: Context, call: WalletCall, options: CallOptions = {}): Promise<T> {
  return request<T>({
    fetch: ctx.fetch,
    baseUrl: ctx.baseUrls.wallet,
    method: call.method ?? 'POST',
    path: call.path,
    headers: walletHeaders(ctx, call.bearer, options),
    ...(call.body ? { body: call.body } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  })
}

/**
 * A call authorised by the wallet token. A 401 while a refresh token is known refreshes once
 * (shared with concurrent callers) and repeats the call once. When the caller supplied a refresh
 * token, the pair is refreshed after the call and returned with the result.
 */
export async function walletTokenCall<T extends object>(
  ctx: Context,
  path: string,
  params: TokenArgs & object,
  options: CallOptions = {},
): Promise<T & RefreshedTokens> {
  const { walletToken, refreshToken, ...payload } = params
  const send = (bearer: string | undefined) => walletRequest<T>(ctx, { path, body: { kind: 'json', value: payload }, bearer }, options)

  // The pair as it was when the call went out: a 401 that arrives after someone else refreshed
  // must spend the same (memoised) refresh, not the holder's newer refresh token.
  const used = walletToken ?? ctx.tokens.get().walletToken
  const known = refreshToken ?? ctx.tokens.get().refreshToken
  let pair: TokenPair | undefined
  let result: T
  try {
    result = await send(used)
  } catch (error) {
    if (!(error instanceof SdkError) || error.code !== '401' || !known) throw error
    pair = await refreshTokens(ctx, known)
    result = await send(pair.walletToken)
  }

  if (refreshToken !== undefined && !pair) pair = await refreshTokens(ctx, refreshToken)
  if (!pair || refreshToken === undefined) return result as T & RefreshedTokens
  return { ...result, walletToken: pair.walletToken, refreshToken: pair.refreshToken }
}
