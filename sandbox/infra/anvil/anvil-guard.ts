import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'

/**
 * The local chains are the sandbox's own back end: every wallet's funds and the faucet live there,
 * and anvil answers `anvil_setBalance`, `anvil_impersonateAccount`, `anvil_setCode`, `anvil_reset`
 * and `eth_sendUnsignedTransaction` to whoever reaches it. anvil itself grants CORS to every origin
 * and checks no Host header, so a web page (or a DNS-rebinding page) could call it directly.
 *
 * So anvil is reached over its IPC socket (in a private folder), and its own HTTP port is not used.
 * The chain's RPC URL (`chains[i].rpcUrl`, for the sandbox itself, tests and local tools) is this
 * guard on 127.0.0.1: it serves programs, never browsers. Pages use the sandbox's `/rpc/:chainId`
 * proxy, which forwards the read allowlist only.
 */

/** Why a request to a chain's RPC URL is refused (HTTP status and message), or undefined. */
export function refusal(method: string | undefined, headers: IncomingHttpHeaders, port: number): [number, string] | undefined {
  // Browsers send Origin on every POST, and Sec-Fetch-Site/Dest on every request they make.
  if (headers.origin !== undefined || headers['sec-fetch-site'] !== undefined || headers['sec-fetch-dest'] !== undefined)
    return [403, `Browsers may not call the chain directly: use the sandbox's /rpc/:chainId`]
  const host = headers.host?.toLowerCase()
  if (!host || !['127.0.0.1', 'localhost', '[::1]'].some((name) => host === `${name}:${port}`))
    return [403, `Host ${JSON.stringify(headers.host ?? '')} is not this chain (a DNS-rebinding page?)`]
  if (headers.upgrade !== undefined) return [403, 'No WebSocket on the chain RPC URL']
  if (method !== 'POST') return [405, 'JSON-RPC over POST only']
  if (!/^application\/json\s*(;|$)/i.test(headers['content-type'] ?? '')) return [415, 'Content-Type must be application/json']
  return undefined
}

const maxBody = 8 * 1024 * 1024

/** One JSON-RPC exchange over anvil's IPC socket: anvil answers each message with one JSON line. */
export function ipcRequest(path: string, body: string, timeoutMs = 60_000, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(path)
    // The caller went away: nobody waits for the answer.
    signal?.addEventListener('abort', () => done(new Error('aborted')), { once: true })
    let answer = ''
    const done = (error?: Error) => {
      socket.destroy()
      clearTimeout(timer)
      if (error) reject(error)
      else resolve(answer.trim())
    }
    const timer = setTimeout(() => done(new Error(`the chain did not answer within ${timeoutMs} ms`)), timeoutMs)
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      answer += chunk
      if (!answer.endsWith('\n')) return
      try {
        JSON.parse(answer)
        done()
      } catch {
        // a newline inside a longer answer: keep reading
      }
    })
    socket.on('error', done)
    socket.on('close', () => done(new Error('the chain closed the connection')))
    socket.write(body)
  })
}

/** The chain's RPC URL: 127.0.0.1:port, guarded by `refusal`, forwarding to anvil's IPC socket. */
export function serveChain(ipcPath: string, port: number): Promise<{ server: Server; port: number }> {
  // The port it listens on (the system's choice when asked for 0), kept: once the server is closed,
  // `server.address()` is null, while a connection opened before may still bring a request.
  let own = port
  const server = createServer((req, res) => {
    const reply = (status: number, body: string) => {
      if (res.headersSent) return
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
      res.end(body)
    }
    // Node keeps the first of two Host headers: a request carrying two is not answered at all.
    const hosts = req.rawHeaders.filter((_, i) => i % 2 === 0 && req.rawHeaders[i]!.toLowerCase() === 'host').length
    const refused: [number, string] | undefined = hosts > 1 ? [400, 'One Host header'] : refusal(req.method, req.headers, own)
    if (refused) {
      req.resume()
      reply(refused[0], JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: refused[1] } }))
      return
    }
    let text = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => {
      text += chunk
      if (text.length > maxBody) {
        reply(413, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Request too large' } }))
        req.destroy()
      }
    })
    req.on('end', () => {
      let payload: unknown
      try {
        payload = JSON.parse(text)
      } catch {
        return reply(200, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }))
      }
      // anvil answers no notification (a message without id): waiting for one would hold the request.
      const messages = Array.isArray(payload) ? payload : [payload]
      if (messages.some((m) => typeof m !== 'object' || m === null || (m as { id?: unknown }).id === undefined))
        return reply(400, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request: every message needs an id' } }))
      const gone = new AbortController()
      res.once('close', () => gone.abort())
      // Re-serialised: one line per message on the socket, whatever whitespace the client sent.
      ipcRequest(ipcPath, JSON.stringify(payload), 60_000, gone.signal).then(
        (answer) => reply(200, answer),
        // anvil down (or restarting): each message gets its own error, by id. The cause stays here:
        // it names the private socket path, and the sandbox's public proxy passes this answer on.
        () => {
          const errors = messages.map((m) => ({ jsonrpc: '2.0', id: (m as { id: unknown }).id, error: { code: -32603, message: 'Chain unavailable' } }))
          reply(502, JSON.stringify(Array.isArray(payload) ? errors : errors[0]))
        },
      )
    })
  })
  // A WebSocket upgrade has no 'upgrade' listener: Node closes the socket.
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new Error(`anvil port ${port} is already in use`) : error))
    server.listen(port, '127.0.0.1', () => {
      own = (server.address() as AddressInfo).port
      resolve({ server, port: own })
    })
  })
}
