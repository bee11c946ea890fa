import type { Context, ErrorHandler, MiddlewareHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

// What every request meets first and last: it is answered only on this server's own host names,
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
