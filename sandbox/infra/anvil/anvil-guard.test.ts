import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { createServer, connect, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { serveChain } from './anvil-guard.ts'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** A stand-in for anvil's IPC socket: every JSON line gets a result with the same id. */
async function fakeChain(): Promise<string> {
  const folder = mkdtempSync(join(tmpdir(), 'anvil-guard-'))
  const path = join(folder, 'anvil.ipc')
  const ipc: Server = createServer((socket) => {
    socket.setEncoding('utf8')
    socket.on('data', (line: string) => {
      const { id } = JSON.parse(line) as { id: unknown }
      socket.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: '0x7a69' })}\n`)
    })
  })
  await new Promise<void>((resolve) => ipc.listen(path, resolve))
  cleanups.push(() => {
    ipc.close()
    rmSync(folder, { recursive: true, force: true })
  })
  return path
}

test('a request still arriving on an open connection after the guard stopped listening is answered, not thrown on', async () => {
  const { server, port } = await serveChain(await fakeChain(), 0)
  cleanups.push(() => server.closeAllConnections())
  const socket = connect(port, '127.0.0.1')
  cleanups.push(() => socket.destroy())
  let answer = ''
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => (answer += chunk))
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()))

  // The request has begun (so the connection is not idle and survives close), its headers not yet complete.
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'eth_chainId', params: [] })
  socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`)
  await new Promise((resolve) => setTimeout(resolve, 50))
  server.close()
  expect(server.address(), 'the server no longer has an address').toBeNull()

  socket.write(`Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 5_000))])
  expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK')
  // The body comes chunked: its one chunk is the chain's answer.
  expect(answer.slice(answer.indexOf('\r\n\r\n') + 4).split('\r\n')[1]).toBe('{"jsonrpc":"2.0","id":7,"result":"0x7a69"}')
})

test('the Host check names the port the guard was given by the system (port 0)', async () => {
  const { server, port } = await serveChain(await fakeChain(), 0)
  cleanups.push(() => server.close())
  expect(port).toBeGreaterThan(0)
  // node:http, not fetch: fetch sends its own Host header.
  const ask = (host: string) =>
    new Promise<number | undefined>((resolve, reject) => {
      const req = request(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { host, 'content-type': 'application/json' } }, (res) => {
        res.resume()
        resolve(res.statusCode)
      })
      req.on('error', reject)
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId' }))
    })
  expect(await ask(`127.0.0.1:${port}`)).toBe(200)
  expect(await ask(`127.0.0.1:${port + 1}`)).toBe(403)
})
