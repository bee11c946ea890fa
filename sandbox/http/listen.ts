import { lookup } from 'node:dns/promises'
import type { Server } from 'node:http'
import { createAdaptorServer } from '@hono/node-server'
import type { Env, Hono } from 'hono'

/**
 * Binds 127.0.0.1 only (never the network). Where `localhost` also resolves to ::1, that is bound
 * too on the same port, so a browser opening http://localhost:<port> reaches us whichever it tries first.
 */
export async function listen<E extends Env>(app: Hono<E>, port: number) {
  const first = await listenOne(app, port, '127.0.0.1')
  const address = first.address()
  const bound = typeof address === 'object' && address ? address.port : port
  const list: Server[] = [first]
  const resolved = await lookup('localhost', { all: true }).catch(() => [])
  if (resolved.some((entry) => entry.address === '::1')) {
    const second = await listenOne(app, bound, '::1').catch(() => undefined)
    if (second) list.push(second)
  }
  return { port: bound, list }
}

function listenOne<E extends Env>(app: Hono<E>, port: number, host: string): Promise<Server> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve(server)
    })
  })
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
