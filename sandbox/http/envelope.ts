import type { Context, ErrorHandler, NotFoundHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import type { ContentfulStatusCode } from 'hono/utils/http-status'

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
