/**
 * A real HTTP server on 127.0.0.1 that answers by scripted rules and records every request.
 * Tests drive it over HTTP (/__control/...), so the same suite runs in Node and in Chromium.
 * It also does the independent cryptography with node:crypto: HMAC, SHA-256, RSA keys and verify.
 */
import { createHash, createHmac, createVerify, generateKeyPairSync } from 'node:crypto'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { freePort } from '../sandbox/infra/ports.ts'
import type { RecordedRequest, Rule } from './recorder-types.fixture.ts'

type Session = { rules: (Rule & { used: number })[]; requests: RecordedRequest[] }

export type RecorderServer = { url: string; close(): Promise<void> }

export async function startRecorder(): Promise<RecorderServer> {
  const sessions = new Map<string, Session>()
  let nextSession = 0
  let keys: ReturnType<typeof makeKeys> | undefined

  const server = createServer(async (req, res) => {
    cors(req, res)
    if (req.method === 'OPTIONS') return end(res, 204, '')
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const body = await readBody(req)
    try {
      if (url.pathname.startsWith('/__control/')) return control(url, body, res)
      const match = /^\/s\/([^/]+)(\/.*)$/.exec(url.pathname)
      const session = match ? sessions.get(match[1]!) : undefined
      if (!match || !session) return json(res, 404, { status: 404, message: 'No such session', data: null })
      const path = match[2]!
      const record: RecordedRequest = {
        method: req.method ?? '',
        path,
        query: Object.fromEntries(url.searchParams),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body,
        at: Date.now(),
      }
      session.requests.push(record)
      const rule = session.rules.find((r) => matches(r, record))
      if (!rule) return json(res, 404, { status: 404, message: `No rule for ${record.method} ${path}`, data: null })
      rule.used++
      return respond(rule, record, req, res)
    } catch (error) {
      return json(res, 500, { status: 500, message: String(error), data: null })
    }
  })

  function control(url: URL, body: string, res: ServerResponse) {
    const input = body ? JSON.parse(body) : {}
    const parts = url.pathname.split('/').filter(Boolean) // ['__control', ...]
    const [, action, id, sub] = parts
    if (action === 'session') {
      const key = `t${++nextSession}`
      sessions.set(key, { rules: [], requests: [] })
      return json(res, 200, { id: key })
    }
    if (action === 's' && id) {
      const session = sessions.get(id)
      if (!session) return json(res, 404, { message: 'No such session' })
      if (sub === 'rules') {
        session.rules.push(...(input as Rule[]).map((r) => ({ ...r, used: 0 })))
        return json(res, 200, { ok: true })
      }
      if (sub === 'requests') return json(res, 200, session.requests)
      if (sub === 'reset') {
        session.rules = []
        session.requests = []
        return json(res, 200, { ok: true })
      }
    }
    if (action === 'dead-url') return deadUrl().then((dead) => json(res, 200, { url: dead }))
    if (action === 'hmac') return json(res, 200, { signature: createHmac('sha256', input.key).update(input.data).digest('base64') })
    if (action === 'sha256') return json(res, 200, { hex: createHash('sha256').update(input.data).digest('hex') })
    if (action === 'rsa-keys') {
      keys ??= makeKeys()
      return json(res, 200, keys)
    }
    if (action === 'rsa-verify') {
      const ok = createVerify('RSA-SHA256').update(input.data).verify(input.publicKey, input.signature, 'base64')
      return json(res, 200, { ok })
    }
    return json(res, 404, { message: 'Unknown control action' })
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => closeServer(server) }
}

function matches(rule: Rule, req: RecordedRequest): boolean {
  if (rule.method && rule.method !== req.method) return false
  if (rule.path !== req.path) return false
  if (rule.times !== undefined && (rule as Rule & { used: number }).used >= rule.times) return false
  for (const [name, value] of Object.entries(rule.when ?? {})) {
    if (req.headers[name.toLowerCase()] !== value) return false
  }
  return true
}

async function respond(rule: Rule, record: RecordedRequest, req: IncomingMessage, res: ServerResponse) {
  if (rule.delayMs) await new Promise((resolve) => setTimeout(resolve, rule.delayMs))
  if (rule.destroy) return req.socket.destroy()
  if (res.destroyed || res.writableEnded) return
  if (rule.rpcResult !== undefined || rule.rpcError !== undefined) {
    const id = (JSON.parse(record.body) as { id: number }).id
    const payload = rule.rpcError ? { jsonrpc: '2.0', id, error: rule.rpcError } : { jsonrpc: '2.0', id, result: rule.rpcResult }
    return json(res, rule.status ?? 200, payload)
  }
  if (rule.raw !== undefined) return end(res, rule.status ?? 200, rule.raw, 'text/plain')
  const status = rule.status ?? 200
  const body = rule.envelope === false ? rule.body : { status, message: rule.message ?? 'OK', data: rule.body ?? null }
  return json(res, status, body)
}

function cors(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('access-control-allow-origin', '*')
  res.setHeader('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS')
  // A '*' here would not cover Authorization, so echo what the browser asks for.
  res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*')
  res.setHeader('access-control-max-age', '600')
}

function json(res: ServerResponse, status: number, body: unknown) {
  end(res, status, JSON.stringify(body), 'application/json')
}

function end(res: ServerResponse, status: number, text: string, type?: string) {
  if (res.destroyed) return
  res.statusCode = status
  if (type) res.setHeader('content-type', type)
  res.end(text)
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', () => resolve(''))
  })
}

/** A URL nothing answers on: a port that was free a moment ago. */
async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

function makeKeys() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    privateKeyPkcs8: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    privateKeyPkcs1: privateKey.export({ type: 'pkcs1', format: 'pem' }) as string,
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }) as string,
  }
}
