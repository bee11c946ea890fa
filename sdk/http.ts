import { type CallOptions, type Context, environmentHeader, type TokenHolder } from './config.ts'
import { SdkError, fromResponse, messages, noResponse, normalizeError, setupError } from './errors.ts'
import type { RefreshedTokens, TokenArgs, TokenPair } from './wallet/types.ts'

// The one HTTP layer of the service clients: a request to any provider service (below), then the
// wallet service's own calls on top of it (its headers, the bearer token, and the token refresh a
// 401 sets off).

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export type Query = Record<string, string | number | boolean | null | undefined>

export type Body = { kind: 'json'; value: unknown } | { kind: 'form'; value: Record<string, string> } | { kind: 'formData'; value: FormData }

export type HttpRequest = {
  fetch: typeof fetch
  baseUrl: string
  method: Method
  /** Path below the base URL, starting with '/'. */
  path: string
  query?: Query
  headers?: Record<string, string | undefined>
  body?: Body
  signal?: AbortSignal
  /** Adds headers computed from the final request (signatures). Runs in the setup phase. */
  sign?: (request: SignInput) => Promise<Record<string, string>>
}

export type SignInput = {
  method: Method
  path: string
  /** The exact body text sent ('' when there is none). */
  body: string
  headers: Record<string, string>
}

/**
 * One HTTP exchange with a provider service: builds the request, sends it with fetch and
 * returns the envelope's `data` (every JSON answer is `{ status, message, data }`). Every failure
 * comes out as an SdkError, normalised by the table in errors.ts.
 * There is no timeout: callers pass an AbortSignal.
 */
export async function request<T>(req: HttpRequest): Promise<T> {
  const response = await requestRaw(req)
  const text = await readText(response, req.signal)

  if (!response.ok) throw fromResponse(response.status, parseLoose(text))
  if (text === '') return undefined as T
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    throw normalizeError(error)
  }
  return unwrap(body) as T
}

/** Like request, for answers that are not wrapped in the envelope or whose failures get their own message. */
export async function requestRaw(req: HttpRequest): Promise<Response> {
  let url: string
  let init: RequestInit
  try {
    ;({ url, init } = await build(req))
  } catch (error) {
    throw setupError(error)
  }
  try {
    return await req.fetch(url, init)
  } catch (error) {
    if (req.signal?.aborted) throw normalizeError(req.signal.reason ?? error)
    throw noResponse(error)
  }
}

/** Reads a body; a connection dropped or aborted mid-body maps like a failed send. */
export async function readText(response: Response, signal?: AbortSignal): Promise<string> {
  try {
    return await response.text()
  } catch (error) {
    if (signal?.aborted) throw normalizeError(signal.reason ?? error)
    throw noResponse(error)
  }
}

export function unwrap(body: unknown): unknown {
  if (typeof body === 'object' && body !== null && 'data' in body) return (body as { data: unknown }).data
  return body
}

async function build(req: HttpRequest): Promise<{ url: string; init: RequestInit }> {
  const url = new URL(req.baseUrl + req.path)
  for (const [key, value] of Object.entries(req.query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value))
  }

  const headers: Record<string, string> = {}
  let body: string | FormData | undefined
  let signedBody = ''
  if (req.body?.kind === 'json') {
    const text = JSON.stringify(req.body.value)
    if (text !== undefined) {
      body = text
      signedBody = text
    }
    headers['content-type'] = 'application/json'
  } else if (req.body?.kind === 'form') {
    body = new URLSearchParams(req.body.value).toString()
    signedBody = body
    headers['content-type'] = 'application/x-www-form-urlencoded'
  } else if (req.body?.kind === 'formData') {
    // fetch writes the multipart boundary into content-type itself.
    body = req.body.value
  }
  for (const [key, value] of Object.entries(req.headers ?? {})) {
    if (value !== undefined) headers[key.toLowerCase()] = value
  }
  if (req.sign) {
    const extra = await req.sign({ method: req.method, path: req.path, body: signedBody, headers })
    for (const [key, value] of Object.entries(extra)) headers[key.toLowerCase()] = value
  }

  const init: RequestInit = { method: req.method, headers }
  if (body !== undefined) init.body = body
  if (req.signal) init.signal = req.signal
  return { url: url.toString(), init }
}

/** An error body as details: its JSON when it parses, else the text itself, nothing when empty. */
export function parseLoose(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

// The wallet service.

/**
 * Headers of every wallet-service call: x-app-id when set, the environment,
 * the client secret only when configured (server back ends), a bearer token where one is needed.
 */
export function walletHeaders(ctx: Context, bearer: string | undefined, options: CallOptions = {}): Record<string, string | undefined> {
  return {
    'x-app-id': ctx.config.appId,
    'x-environment': environmentHeader(ctx.env),
    'x-client-secret': ctx.config.clientSecret,
    authorization: bearer ? `Bearer ${bearer}` : undefined,
    ...options.headers,
  }
}

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

  const promise = spendRefresh(ctx, refreshToken)
  byToken.set(refreshToken, promise)
  if (byToken.size > memoSize) byToken.delete(byToken.keys().next().value as string)
  promise.catch(() => byToken.delete(refreshToken))
  return promise
}

async function spendRefresh(ctx: Context, refreshToken: string): Promise<TokenPair> {
  const heldBefore = ctx.tokens.get().refreshToken === refreshToken
  try {
    // Not tied to any caller's AbortSignal: the result is shared.
    const spend = () => walletRequest<TokenPair>(ctx, { path: '/wallet/refresh', body: { kind: 'json', value: { refreshToken } } })
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
