import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request } from 'node:http'
import { connect } from 'node:net'
import { createTestClient, http, publicActions } from 'viem'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { anvilIsolation, startAnvil } from './anvil.ts'
import { refusal } from './anvil-guard.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

let sandbox: TestSandbox
beforeAll(async () => {
  sandbox = await startTestSandbox()
})
afterAll(() => sandbox?.dispose())

const victim = '0x000000000000000000000000000000000000bEEF'
const body = (method: string, params: unknown[] = []) => JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })

/** A raw HTTP exchange with full control of the headers (fetch would not send a foreign Host). */
function raw(url: string, options: { method?: string; headers?: Record<string, string>; body?: string }) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers: options.headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

const balanceOf = async (rpcUrl: string) =>
  createTestClient({ mode: 'anvil', transport: http(rpcUrl) })
    .extend(publicActions)
    .getBalance({ address: victim })

describe('the local chains are reachable only by programs on this machine, never by a web page', () => {
  test.each([0, 1])(
    'chain %i: a page (Origin, Sec-Fetch-*, a rebinding Host, text/plain, a preflight, WebSocket) is refused, and nothing changes',
    async (index) => {
      const chain = sandbox.chains[index]!
      const port = new URL(chain.rpcUrl).port
      const before = await balanceOf(chain.rpcUrl)
      const mint = body('anvil_setBalance', [victim, '0xde0b6b3a7640000'])
      const json = { 'content-type': 'application/json' }

      const attacks: { headers: Record<string, string>; body: string }[] = [
        { headers: { ...json, origin: 'https://evil.example' }, body: mint },
        { headers: { ...json, origin: 'null' }, body: mint },
        { headers: { ...json, 'sec-fetch-site': 'same-origin', 'sec-fetch-dest': 'empty' }, body: mint },
        { headers: { ...json, host: `evil.example:${port}` }, body: mint },
        { headers: { ...json, host: `127.0.0.1.evil.example:${port}` }, body: mint },
        { headers: { 'content-type': 'text/plain' }, body: mint },
        { headers: {}, body: mint },
      ]
      for (const attack of attacks) {
        const answer = await raw(chain.rpcUrl, attack)
        expect(answer.status, JSON.stringify(attack.headers)).toBeGreaterThanOrEqual(400)
        expect(answer.headers['access-control-allow-origin']).toBeUndefined()
      }
      const preflight = await raw(chain.rpcUrl, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      })
      expect(preflight.status).toBeGreaterThanOrEqual(400)
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined()
      const upgrade = await raw(chain.rpcUrl, {
        method: 'GET',
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' },
      }).catch((error: Error) => ({ status: 0, error }))
      expect(upgrade.status).not.toBe(101)
      expect(await balanceOf(chain.rpcUrl)).toBe(before)
    },
  )

  test('two Host headers, or a notification (anvil never answers one), are answered at once and change nothing', async () => {
    const chain = sandbox.chains[0]!
    const { port } = new URL(chain.rpcUrl)
    const before = await balanceOf(chain.rpcUrl)
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write(
          `POST / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nHost: evil.example\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body('anvil_setBalance', [victim, '0x1']))}\r\nConnection: close\r\n\r\n${body('anvil_setBalance', [victim, '0x1'])}`,
        ),
      )
      let text = ''
      socket.on('data', (chunk) => (text += chunk.toString()))
      socket.on('end', () => resolve(text))
      socket.on('error', reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 400/)
    expect(await balanceOf(chain.rpcUrl)).toBe(before)
    const notification = await raw(chain.rpcUrl, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', method: 'eth_chainId', params: [] }),
    })
    expect(notification.status).toBe(400)
    expect(JSON.parse(notification.text).error.code).toBe(-32600)
  })

  test('a program on this machine (no Origin, its own loopback Host) uses the chain, admin methods included', async () => {
    for (const chain of sandbox.chains) {
      const admin = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).extend(publicActions)
      await admin.setBalance({ address: victim, value: 12345n })
      expect(await admin.getBalance({ address: victim })).toBe(12345n)
      expect(await admin.getChainId()).toBe(chain.chainId)
      const localhost = await raw(chain.rpcUrl.replace('127.0.0.1', 'localhost'), {
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: body('eth_chainId'),
      })
      expect(JSON.parse(localhost.text)).toMatchObject({ result: `0x${chain.chainId.toString(16)}` })
    }
  })

  test('the guard rules', () => {
    const ok = { host: '127.0.0.1:8545', 'content-type': 'application/json' }
    expect(refusal('POST', ok, 8545)).toBeUndefined()
    expect(refusal('POST', { ...ok, host: 'localhost:8545' }, 8545)).toBeUndefined()
    expect(refusal('POST', { ...ok, host: 'LOCALHOST:8545' }, 8545)).toBeUndefined()
    expect(refusal('POST', { ...ok, host: '[::1]:8545' }, 8545)).toBeUndefined()
    expect(refusal('POST', { ...ok, host: '127.0.0.1:8546' }, 8545)?.[0]).toBe(403)
    expect(refusal('POST', { ...ok, host: '127.0.0.1' }, 8545)?.[0]).toBe(403)
    expect(refusal('POST', { ...ok, host: undefined }, 8545)?.[0]).toBe(403)
    expect(refusal('POST', { ...ok, origin: 'http://127.0.0.1:8545' }, 8545)?.[0]).toBe(403)
    expect(refusal('GET', ok, 8545)?.[0]).toBe(405)
    expect(refusal('POST', { ...ok, 'content-type': 'application/jsonx' }, 8545)?.[0]).toBe(415)
    expect(refusal('POST', { ...ok, upgrade: 'websocket' }, 8545)?.[0]).toBe(403)
  })
})

describe.runIf(anvilIsolation())("anvil's own HTTP port", () => {
  test('anvil runs in its own network namespace: its HTTP port is reachable by no program and no page', async () => {
    const anvil = await startAnvil({ chainId: 31339, port: 0 })
    try {
      expect(anvil.isolated).toBe(true)
      expect(readlinkSync(`/proc/${anvil.pid}/ns/net`)).not.toBe(readlinkSync('/proc/self/ns/net'))
      // The namespace has no interface but a loopback: nothing outside it can connect.
      expect(
        await createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) })
          .extend(publicActions)
          .getChainId(),
      ).toBe(31339)
    } finally {
      await anvil.stop()
    }
  })
})

describe.runIf(process.platform === 'linux')('anvil never outlives the sandbox', () => {
  test('a sandbox killed with SIGKILL (no exit hook runs) takes its anvil with it', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', new URL('./anvil-orphan.fixture.ts', import.meta.url).pathname], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const pid = await new Promise<number>((resolve, reject) => {
      let out = ''
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString()
        const found = /anvil (\d+)/.exec(out)
        if (found) resolve(Number(found[1]))
      })
      child.once('exit', () => reject(new Error(`the fixture exited: ${out}`)))
    })
    expect(existsSync(`/proc/${pid}`)).toBe(true)
    child.kill('SIGKILL')
    await expect.poll(() => existsSync(`/proc/${pid}`), { timeout: 15_000, interval: 100 }).toBe(false)
  })
})

describe('an anvil that exits on its own is started again', () => {
  const chainId = async (rpcUrl: string) => {
    const answer = await raw(rpcUrl, { headers: { 'content-type': 'application/json' }, body: body('eth_chainId') }).catch(() => undefined)
    return answer ? { status: answer.status, body: JSON.parse(answer.text) } : undefined
  }

  test('on the same RPC URL, with its state; down meanwhile, each request is answered at once by id; stop() while it waits starts none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wallet-kit-anvil-restart-'))
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const anvil = await startAnvil({ chainId: 31996, port: 0, statePath: join(dir, 'state.json'), restartDelayMs: 500 })
    try {
      const admin = createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).extend(publicActions)
      await admin.setBalance({ address: victim, value: 777n })
      // anvil stopped by someone else (SIGTERM: it saves its state and exits with 0) is started again, with that state.
      const first = anvil.pid!
      process.kill(first, 'SIGTERM')
      await expect.poll(() => anvil.pid, { timeout: 5_000, interval: 10 }).toBeUndefined()
      const batch = await raw(anvil.rpcUrl, {
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify([
          { jsonrpc: '2.0', id: 'a', method: 'eth_blockNumber', params: [] },
          { jsonrpc: '2.0', id: 2, method: 'eth_chainId', params: [] },
        ]),
      })
      expect({ status: batch.status, body: JSON.parse(batch.text) }).toEqual({
        status: 502,
        body: [
          { jsonrpc: '2.0', id: 'a', error: { code: -32603, message: 'Chain unavailable' } },
          { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Chain unavailable' } },
        ],
      })
      await expect.poll(async () => (await chainId(anvil.rpcUrl))?.status, { timeout: 20_000, interval: 50 }).toBe(200)
      await expect.poll(() => anvil.restarts, { timeout: 5_000, interval: 10 }).toBe(1)
      expect(anvil.pid).not.toBe(first)
      expect(await admin.getBalance({ address: victim })).toBe(777n)
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^sandbox: anvil of chain 31996 exited \(code 0\); starting it again in 500 ms$/))

      // Killed again, and stopped before the restart is due: nothing is started after stop().
      process.kill(anvil.pid!, 'SIGKILL')
      await expect.poll(() => anvil.pid, { timeout: 5_000, interval: 10 }).toBeUndefined()
    } finally {
      await anvil.stop()
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(anvil.pid).toBeUndefined()
    expect(anvil.restarts).toBe(1)
    await expect(fetch(anvil.rpcUrl, { method: 'POST' })).rejects.toThrow()
    warn.mockRestore()
    rmSync(dir, { recursive: true, force: true })
  })
})
