// Shared set-up for the sandbox's HTTP tests: a real sandbox (PGlite, anvil, HTTP) on free ports
// with a throw-away data folder and a small dist/ folder of real files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createSandbox, type Sandbox, type SandboxOptions } from './server.ts'

export type TestSandbox = Sandbox & {
  distDir: string
  /** fetch against the sandbox, JSON-parsing the body when it is JSON. */
  call(path: string, init?: RequestInit & { app?: string | null }): Promise<{ status: number; headers: Headers; body: any }>
  /** Requests a login code for `email` and reads it from the dev inbox API. */
  requestCode(email: string, app?: string): Promise<{ verificationToken: string; code: string }>
  dispose(): Promise<void>
}

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const root = mkdtempSync(join(tmpdir(), 'wallet-kit-sandbox-'))
  const distDir = join(root, 'dist')
  mkdirSync(join(distDir, 'widget', 'assets'), { recursive: true })
  mkdirSync(join(distDir, 'kit'), { recursive: true })
  writeFileSync(join(distDir, 'widget', 'index.html'), '<!doctype html><title>widget</title>')
  writeFileSync(join(distDir, 'widget', 'assets', 'index-abc123.js'), 'export const widget = 1')
  writeFileSync(join(distDir, 'kit', 'kit.js'), 'window.kit = 1')

  const sandbox = await createSandbox({ port: 0, anvilPort: 0, dataDir: join(root, 'data'), distDir, ...options })

  const call: TestSandbox['call'] = async (path, init = {}) => {
    const { app = 'demo', ...rest } = init
    const headers = new Headers(rest.headers)
    if (app !== null && !headers.has('x-app-id')) headers.set('x-app-id', app)
    if (!headers.has('x-environment')) headers.set('x-environment', 'development')
    if (typeof rest.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json')
    const response = await fetch(`${sandbox.url}${path}`, { ...rest, headers })
    const text = await response.text()
    let body: unknown = text
    if (response.headers.get('content-type')?.includes('json')) body = JSON.parse(text)
    return { status: response.status, headers: response.headers, body }
  }

  const requestCode = async (email: string, app = 'demo') => {
    const sent = await call('/api/v2/auth/login-otp', {
      method: 'POST',
      app,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email }).toString(),
    })
    if (sent.status !== 200) throw new Error(`login-otp failed: ${JSON.stringify(sent.body)}`)
    const inbox = await call(`/dev/api/inbox?to=${encodeURIComponent(email)}`)
    return { verificationToken: sent.body.data.verificationToken as string, code: inbox.body[0].code as string }
  }

  return {
    ...sandbox,
    distDir,
    call,
    requestCode,
    async dispose() {
      await sandbox.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

export const json = (value: unknown) => JSON.stringify(value)
