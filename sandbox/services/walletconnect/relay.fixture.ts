// Shared set-up for the relay's tests: the relay on a real HTTP server on loopback (as the sandbox
// attaches it, without the rest of the sandbox), and a bare JSON-RPC client over `ws` that makes its
// own auth tokens, for what sign-client never sends.
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { generateKeyPair, type Keypair, signJWT } from '@walletconnect/relay-auth'
import { encodeIss } from '@walletconnect/relay-auth'
import WebSocket from 'ws'
import type { RelayLimits } from './limits.ts'
import { createRelay, type Relay } from './relay.ts'
import { attachRelay } from './routes.ts'

export type TestRelay = {
  relay: Relay
  port: number
  /** ws://127.0.0.1:<port>/walletconnect (the bare server binds 127.0.0.1 only). */
  url: string
  /** Stops the relay and its server, then starts a fresh one (empty memory) on the same port. */
  restart(): Promise<void>
  close(): Promise<void>
}

export async function startTestRelay(limits: Partial<RelayLimits> = {}): Promise<TestRelay> {
  let relay: Relay
  let server: Server
  let port = 0
  const start = async () => {
    relay = createRelay(limits)
    server = createServer((_request, response) => response.writeHead(404).end())
    server.listen(port, '127.0.0.1')
    await once(server, 'listening')
    port = (server.address() as AddressInfo).port
    const origins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`]
    attachRelay([server], { relay, ownOrigins: () => origins, appOrigins: async () => ['http://127.0.0.1:5173'] })
  }
  const stop = async () => {
    await relay.close()
    await new Promise((resolve) => server.close(resolve))
  }
  await start()
  return {
    get relay() {
      return relay
    },
    get port() {
      return port
    },
    get url() {
      return `ws://127.0.0.1:${port}/walletconnect`
    },
    async restart() {
      await stop()
      await start()
    },
    close: stop,
  }
}

export const newKey = () => generateKeyPair()
export const clientIdOf = (key: Keypair) => encodeIss(key.publicKey)

/** An auth token as sign-client makes it, with any of its parts changed. */
export const authToken = (aud: string, options: { key?: Keypair; ttlSeconds?: number; iat?: number } = {}) =>
  signJWT('sub', aud, options.ttlSeconds ?? 86_400, options.key ?? newKey(), options.iat)

/** Opens a socket; answers the socket, or the HTTP status of a refused upgrade. */
export function openSocket(url: string, headers: Record<string, string> = {}): Promise<WebSocket | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers })
    socket.once('open', () => resolve(socket))
    socket.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0)
      socket.terminate()
    })
    socket.once('error', reject)
  })
}

// biome-ignore lint/suspicious/noExplicitAny: any JSON the relay sends; each test asserts the shape it expects
type Json = any

export type RawClient = {
  clientId: string
  socket: WebSocket
  /** Every frame received, parsed. */
  frames: Json[]
  /** Sends a request and waits for its answer. */
  call(method: string, params?: unknown): Promise<Json>
  /** Sends a frame as is. */
  sendRaw(data: string | Buffer): void
  /** Waits for a received frame that matches (already received ones included). */
  next(match: (frame: Json) => boolean, timeoutMs?: number): Promise<Json>
  /** Pushes received so far (irn_subscription), by topic. */
  pushes(topic?: string): Json[]
  /** Resolves with the close code once the socket closes. */
  closed: Promise<number>
  close(): void
}

/** A client of its own (or the given key), connected to the relay at `url` with a valid token; acknowledges pushes unless told not to. */
export async function rawClient({ url }: { url: string }, options: { key?: Keypair; ack?: boolean } = {}): Promise<RawClient> {
  const key = options.key ?? newKey()
  const socket = await openSocket(`${url}?auth=${await authToken(url, { key })}&projectId=test`)
  if (typeof socket === 'number') throw new Error(`Upgrade refused: ${socket}`)
  const frames: Json[] = []
  const waiters = new Set<() => void>()
  let nextId = 1
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)))
  socket.on('message', (data) => {
    const frame = JSON.parse(data.toString())
    frames.push(frame)
    if (frame.method === 'irn_subscription' && options.ack !== false) socket.send(JSON.stringify({ id: frame.id, jsonrpc: '2.0', result: true }))
    for (const wake of [...waiters]) wake()
  })
  const next: RawClient['next'] = (match, timeoutMs = 2_000) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const found = frames.find(match)
        if (found === undefined) return
        waiters.delete(check)
        clearTimeout(timer)
        resolve(found)
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        reject(new Error('No matching frame'))
      }, timeoutMs)
      waiters.add(check)
      check()
    })
  return {
    clientId: clientIdOf(key),
    socket,
    frames,
    async call(method, params) {
      const id = nextId++
      socket.send(JSON.stringify({ id, jsonrpc: '2.0', method, params }))
      return next((frame) => frame.id === id && frame.method === undefined)
    },
    sendRaw: (data) => socket.send(data),
    next,
    pushes: (topic) => frames.filter((frame) => frame.method === 'irn_subscription' && (topic === undefined || frame.params.data.topic === topic)),
    closed,
    close: () => socket.close(),
  }
}

/** Polls until `condition` holds (what the relay does after a socket closes happens a moment after the client sees it). */
export async function until(condition: () => boolean, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > end) throw new Error('Timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** A random topic (32 bytes, hex). */
export const randomTopic = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex')
