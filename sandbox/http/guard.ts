import type { MiddlewareHandler } from 'hono'
import { HttpError } from './envelope.ts'

/**
 * DNS rebinding: a site whose name is made to resolve to 127.0.0.1 reaches this server as its own
 * origin, with its own name in Host. Only our own host names (with our port) are answered.
 */
export function requireOwnHost(sandbox: { ownOrigins(): string[] }): MiddlewareHandler {
  return async (c, next) => {
    const host = c.req.header('host')?.toLowerCase()
    const hosts = sandbox.ownOrigins().map((origin) => new URL(origin).host)
    if (host === undefined || !hosts.includes(host)) throw new HttpError(421, 'Unknown host')
    return next()
  }
}
