import type { MiddlewareHandler } from 'hono'
import { HttpError } from './envelope.ts'

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
