import type { IncomingMessage, Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { Hono } from 'hono'
import type { Deps, SandboxEnv } from '../../context.ts'
import { isOriginAllowed } from '../../http/origins.ts'
import { checkRelayAuth } from './auth.ts'
import { relayPath, relayUrlOf } from './config.ts'

type RelayDeps = Pick<Deps, 'relay' | 'ownOrigins'> & {
  /** Origins some app allows (its host pages; the wallet frame pairs from inside them). */
  appOrigins(): Promise<readonly string[]>
}

/**
 * Hands WebSocket upgrades on `relayPath` to the relay, on every server the sandbox listens on.
 * Upgrades never reach Hono, so the checks its middleware makes for other paths are made here:
 * the sandbox's own Host only (DNS rebinding); a browser page only from the sandbox's own origin or
 * one an app allows (any web site can open a WebSocket, and browsers apply no CORS to it: only the
 * Origin header tells; programs send none); then the client's auth token (auth.ts). Anything
 * refused gets a plain HTTP answer and no socket; an upgrade on any other path is 404.
 */
export function attachRelay(servers: readonly Server[], deps: RelayDeps) {
  const onUpgrade = relayUpgradeHandler(deps)
  for (const server of servers) server.on('upgrade', onUpgrade)
}

export function relayUpgradeHandler(deps: RelayDeps) {
  return (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A client that resets the connection mid-handshake must not raise an unhandled 'error'.
    socket.on('error', () => socket.destroy())
    upgrade(deps, request, socket, head).catch(() => refuse(socket, 500, 'Internal error'))
  }
}

async function upgrade(deps: RelayDeps, request: IncomingMessage, socket: Duplex, head: Buffer) {
  const url = new URL(request.url ?? '/', 'http://relay.invalid')
  if (url.pathname !== relayPath) return refuse(socket, 404, 'Not found')
  const own = deps.ownOrigins()
  const host = request.headers.host?.toLowerCase()
  if (host === undefined || !own.some((origin) => new URL(origin).host === host)) return refuse(socket, 421, 'Unknown host')
  const origin = request.headers.origin
  if (origin !== undefined && !own.includes(origin) && !isOriginAllowed(origin, [...(await deps.appOrigins())]))
    return refuse(socket, 403, 'Origin not allowed')
  // The audience is the relay URL the client was given: any of the sandbox's names for itself.
  const auth = await checkRelayAuth(url.searchParams.get('auth'), own.map(relayUrlOf))
  if (!auth.ok) return refuse(socket, 401, auth.reason)
  if (socket.destroyed) return
  const refused = deps.relay.accept(request, socket, head, auth.clientId)
  if (refused) refuse(socket, refused.status, refused.reason)
}

const statusText: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  421: 'Misdirected Request',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
}

function refuse(socket: Duplex, status: number, reason: string) {
  if (socket.destroyed) return
  const body = `${reason}\n`
  socket.once('finish', () => socket.destroy())
  socket.end(
    `HTTP/1.1 ${status} ${statusText[status] ?? 'Error'}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  )
}

/** A plain GET of the relay's path (a person opening it in a browser): it speaks WebSocket only. */
export function relayPageRoutes() {
  return new Hono<SandboxEnv>().get('/', (c) =>
    c.text('WalletConnect relay: connect with a WebSocket client (sign-client, WalletKit).', 426, { Upgrade: 'websocket' }),
  )
}
