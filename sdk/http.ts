import { fromResponse, noResponse, normalizeError, setupError } from './errors.ts'

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
