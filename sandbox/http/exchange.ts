import type { Context, ErrorHandler, MiddlewareHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

// One HTTP exchange as every route meets it: the request is answered only on this server's own host
// names, its text is read and checked here (a JSON or form body, its fields, no control characters),
// and its answer, success or failure, is one envelope.

/** The response body the sdk's clients read (they return its `data`): every JSON answer of the services has this shape. */
export type Envelope<data> = { status: number; message: string; data: data }

/** An expected failure whose message is safe to show the caller. */
export class HttpError extends Error {
  override readonly name = 'HttpError'
  readonly status: ContentfulStatusCode
  /** The envelope's `status` when it differs from the HTTP one (the permission refusal, 407). */
  readonly code: number | undefined
  readonly data: unknown
  readonly headers: Record<string, string>
  constructor(status: ContentfulStatusCode, message: string, options: { code?: number; data?: unknown; headers?: Record<string, string> } = {}) {
    super(message)
    this.status = status
    this.code = options.code
    this.data = options.data ?? null
    this.headers = options.headers ?? {}
  }
}

export function ok<data>(c: Context, data: data, message = 'OK') {
  return c.json({ status: 200, message, data } satisfies Envelope<data>, 200)
}

export function fail(c: Context, status: ContentfulStatusCode, message: string, options: { code?: number; data?: unknown } = {}) {
  return c.json({ status: options.code ?? status, message, data: options.data ?? null } satisfies Envelope<unknown>, status)
}

/** Known errors keep their status and message; anything else is a 500 whose details stay in the server log. */
export const onError: ErrorHandler = (error, c) => {
  if (error instanceof HttpError) {
    for (const [name, value] of Object.entries(error.headers)) c.header(name, value)
    return fail(c, error.status, error.message, { ...(error.code ? { code: error.code } : {}), data: error.data })
  }
  if (error instanceof HTTPException && error.status < 500) return fail(c, error.status, error.message || 'Bad request')
  console.error(`[sandbox] ${c.req.method} ${c.req.path} failed:`, error)
  return fail(c, 500, 'Internal server error')
}

export const notFound: NotFoundHandler = (c) => fail(c, 404, 'Not found')

/** Every answer says nosniff (no browser guesses its type); with `log`, each request is logged with its status and time. */
export function everyAnswer(log: boolean): MiddlewareHandler {
  return async (c, next) => {
    const started = Date.now()
    c.header('X-Content-Type-Options', 'nosniff')
    await next()
    if (log) console.log(`${c.req.method} ${c.req.path} ${c.res.status} ${Date.now() - started}ms`)
  }
}

/** This server's own origins: localhost, 127.0.0.1 and [::1] on the port it listens on. */
export type OwnOrigins = {
  /** http://localhost:<port>, the provider origin the widget and kit are served from. */
  origin(): string
  ownOrigins(): readonly string[]
  /** Called once the server listens, with its port (until then the port is 0). */
  listening(port: number): void
}

/** The origins are worked out once, when the port is known, not on each request that asks. */
export function createOwnOrigins(): OwnOrigins {
  let origins: readonly string[] = []
  const listening = (port: number) => {
    origins = Object.freeze([`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`])
  }
  listening(0)
  return { origin: () => origins[0]!, ownOrigins: () => origins, listening }
}

/**
 * DNS rebinding: a site whose name is made to resolve to 127.0.0.1 reaches this server as its own
 * origin, with its own name in Host. Only our own host names (with our port) are answered.
 */
export function requireOwnHost(sandbox: { ownOrigins(): readonly string[] }): MiddlewareHandler {
  let origins: readonly string[] | undefined
  let hosts: string[] = []
  return async (c, next) => {
    const own = sandbox.ownOrigins()
    if (own !== origins) {
      origins = own
      hosts = own.map((origin) => new URL(origin).host)
    }
    const host = c.req.header('host')?.toLowerCase()
    if (host === undefined || !hosts.includes(host)) throw new HttpError(421, 'Unknown host')
    return next()
  }
}

// The request's text.

export type JsonObject = Record<string, unknown>

/**
 * Reads a JSON object body. An empty body without a Content-Type counts as `{}`, so calls with only
 * optional fields may send nothing. Anything else must say application/json: a page on another
 * site can only send that type after a CORS preflight, never from a plain form or no-cors fetch.
 */
export async function readJson(c: Context): Promise<JsonObject> {
  const type = c.req.header('content-type')
  const text = await c.req.text()
  if (type === undefined && text === '') return {}
  if (type?.split(';')[0]?.trim().toLowerCase() !== 'application/json') throw new HttpError(415, 'Content-Type must be application/json')
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new HttpError(400, 'Malformed JSON body')
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, 'Body must be a JSON object')
  return value as JsonObject
}

/** Reads an `application/x-www-form-urlencoded` (or multipart) body as string fields. */
export async function readForm(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? ''
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) throw new HttpError(400, 'Body must be form-encoded')
  let body: Record<string, unknown>
  try {
    body = await c.req.parseBody()
  } catch {
    throw new HttpError(400, 'Malformed form body')
  }
  const fields: Record<string, string> = {}
  for (const [key, value] of Object.entries(body)) if (typeof value === 'string') fields[key] = value
  return fields
}

/** A string field that must not be empty, at most `maxLength` long. */
export function requiredString(body: JsonObject, key: string, maxLength = 2048): string {
  const value = readString(body[key], key, maxLength)
  if (value.length === 0) throw new HttpError(400, `${key} is required`)
  return value
}

/** A string field that may be empty (a message, a network slug), at most `maxLength` long. */
export function readString(value: unknown, key: string, maxLength: number): string {
  if (value === undefined || value === null) throw new HttpError(400, `${key} is required`)
  if (typeof value !== 'string') throw new HttpError(400, `${key} must be a string`)
  if (value.length > maxLength) throw new HttpError(400, `${key} is too long`)
  return value
}

/** A date given as an ISO-8601 string or epoch milliseconds. */
export function optionalDate(body: JsonObject, key: string): Date | undefined {
  const value = body[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' && typeof value !== 'number') throw new HttpError(400, `${key} must be a date`)
  const date = new Date(value)
  if (Number.isNaN(date.getTime())) throw new HttpError(400, `${key} must be a date`)
  return date
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The kit's e-mail rule (something, @, something, a dot, something), lower-cased so one mailbox is one user. */
export function parseEmail(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined
  const email = value.trim().toLowerCase()
  if (email.length > 254 || !emailPattern.test(email)) return undefined
  return email
}

/** Refuses fields the call does not define, so a client typo fails loudly instead of being ignored. */
export function onlyFields(body: JsonObject, allowed: readonly string[], where = 'body'): void {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key))
  if (unknown.length) throw new HttpError(400, `Unknown field${unknown.length > 1 ? 's' : ''} in ${where}: ${unknown.join(', ')}`)
}

/**
 * Characters no text the sandbox takes may hold: the C0 controls but tab, line feed and carriage
 * return (NUL among them, which PostgreSQL's text refuses: it was a 500), DEL, the C1 controls,
 * and unpaired UTF-16 surrogates (no UTF-8 text holds one; they reach us only as JSON \u escapes).
 * Bytes are sent as 0x-hex, never as raw text, so nothing legitimate is refused.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose
const controlText = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Why `text` is refused ("U+0000", "an unpaired surrogate U+D800"), or undefined when it is fine. */
export function controlCharacterIn(text: string): string | undefined {
  const found = controlText.exec(text)?.[0]
  if (found === undefined) return undefined
  const code = `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`
  return found.length === 1 && found >= '\ud800' && found <= '\udfff' ? `an unpaired surrogate ${code}` : code
}

const textError = (where: string, found: string) => new HttpError(400, `${where} must not contain control characters (found ${found})`)

/**
 * Throws a 400 naming the first string (or key) in a parsed JSON value that holds a control
 * character: `email`, `transaction.to`, `tokenAddresses[1]`. Walked without recursion: a body may
 * nest deeper than the stack.
 */
export function refuseControlTextIn(value: unknown, where = 'body'): void {
  const stack: [unknown, string][] = [[value, '']]
  while (stack.length) {
    const [item, path] = stack.pop()!
    if (typeof item === 'string') {
      const found = controlCharacterIn(item)
      if (found) throw textError(path || where, found)
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push([item[i], `${path}[${i}]`])
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, child] of Object.entries(item)) {
        const found = controlCharacterIn(key)
        if (found) throw textError(`A field name in ${path || where}`, found)
        stack.push([child, path ? `${path}.${key}` : key])
      }
    }
  }
}

/**
 * The one check every request's text passes before a route reads it (sandbox/app.ts): the path, each
 * query parameter, and the body's fields (JSON, a form, or multipart's text fields). A control
 * character anywhere is a 400 naming where it was; what is not well-formed is left to the route.
 * Use after the path's body limit, so the body read here is bounded.
 */
export function refuseControlText(options: { body: boolean }): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url)
    const inPath = controlCharacterIn(decodedPath(url.pathname))
    if (inPath) throw textError('The URL path', inPath)
    for (const [key, value] of url.searchParams) {
      const found = controlCharacterIn(key) ?? controlCharacterIn(value)
      if (found) throw textError(`Query parameter ${JSON.stringify(key)}`, found)
    }
    if (options.body && c.req.method !== 'GET' && c.req.method !== 'HEAD') await refuseControlBody(c)
    return next()
  }
}

/**
 * The path as the router hands its parameters to a route: each run of valid percent escapes decoded
 * on its own, a run that is not UTF-8 left as it is. Not decodeURIComponent of the whole path, which
 * gives up on one bad escape ('%00%ZZ') while the route still reads the NUL beside it.
 */
function decodedPath(path: string): string {
  return path.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run)
    } catch {
      return run
    }
  })
}

/**
 * What may decode to a control character or a lone surrogate: a JSON escape (\b, \f, \u0000-\u001f,
 * \u007f-\u009f, \ud800-\udfff, paired or not) or a form's percent escape (%00-%1f, %7f, and C1's
 * UTF-8 %c2%80-%c2%9f). Tab, LF and CR are allowed in a field, so their escapes may match too: the
 * slow path decides.
 */
const encodedControl = /\\[bf]|\\u(?:00[01]|007f|008|009|d[89a-f])|%(?:[01][0-9a-f]|7f|c2%[89][0-9a-f])/i

async function refuseControlBody(c: Context): Promise<void> {
  // Read as bytes, which Hono keeps for the route: every other reading (text, form, JSON) is made
  // from them unchanged. A failed parse here is the route's to answer, never cached as a failure.
  const bytes = await c.req.arrayBuffer()
  if (bytes.byteLength === 0) return
  const type = c.req.header('content-type') ?? ''
  if (type.toLowerCase().startsWith('multipart/form-data')) {
    const form = await new Response(bytes, { headers: { 'content-type': type } }).formData().catch(() => undefined)
    return refuseControlFields(form ?? [])
  }
  const text = new TextDecoder().decode(bytes)
  // Most bodies hold nothing that could decode to a control character: no need to parse them a
  // second time (the route parses them too). Anything that could is read field by field below.
  if (!controlCharacterIn(text) && !encodedControl.test(text)) return
  let json: unknown
  let parsed = false
  try {
    json = JSON.parse(text)
    parsed = true
  } catch {}
  if (parsed) return refuseControlTextIn(json)
  // Not JSON: read as a form (what every other body here is), whatever its declared type.
  refuseControlFields(new URLSearchParams(text))
}

/** A form's fields, names and text values (a multipart file is not text), each named in the 400. */
function refuseControlFields(fields: Iterable<[string, unknown]>): void {
  for (const [key, value] of fields) {
    const inKey = controlCharacterIn(key)
    if (inKey) throw textError('A field name', inKey)
    const found = typeof value === 'string' ? controlCharacterIn(value) : undefined
    if (found) throw textError(key, found)
  }
}
