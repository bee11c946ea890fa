// Shared set-up for the sandbox's HTTP tests: a real sandbox (PGlite, anvil, HTTP) on free ports
// with a throw-away data folder and a small dist/ folder of real files.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { AppSettings } from './services/app-config/apps.ts'
import { createSandbox, repoRoot, type Sandbox, type SandboxOptions } from './server.ts'

export type TestSandbox = Sandbox & {
  distDir: string
  /**
   * fetch against the sandbox, JSON-parsing the body when it is JSON. Wallet-service calls without
   * an Origin act as the app's back end: they send the app's client secret unless `secret` is
   * given (`null`: none) or the headers already carry one.
   */
  // biome-ignore lint/suspicious/noExplicitAny: any JSON the sandbox answers; each test asserts the shape it expects
  call(path: string, init?: RequestInit & { app?: string | null; secret?: string | null }): Promise<{ status: number; headers: Headers; body: any }>
  /** Requests a login code for `email` and reads it from the dev inbox API. */
  requestCode(email: string, app?: string): Promise<{ verificationToken: string; code: string }>
  /** POST a JSON body (a string is sent as is), with an optional bearer token. */
  // biome-ignore lint/suspicious/noExplicitAny: any JSON the sandbox answers; each test asserts the shape it expects
  post(path: string, body: unknown, token?: string, app?: string): Promise<{ status: number; headers: Headers; body: any }>
  /** Logs `email` in with a code and creates its wallet; answers account/create's data. */
  signUp(email: string, app?: string): Promise<CreatedWallet>
  dispose(): Promise<void>
}

export type CreatedWallet = { walletToken: string; refreshToken: string; secret0: string; address: `0x${string}` }

export async function startTestSandbox(options: SandboxOptions = {}): Promise<TestSandbox> {
  const root = mkdtempSync(join(tmpdir(), 'wallet-kit-sandbox-'))
  const distDir = join(root, 'dist')
  mkdirSync(join(distDir, 'widget', 'assets'), { recursive: true })
  mkdirSync(join(distDir, 'kit'), { recursive: true })
  writeFileSync(join(distDir, 'widget', 'index.html'), '<!doctype html><html><head><title>widget</title></head><body></body></html>')
  writeFileSync(join(distDir, 'widget', 'assets', 'index-abc123.js'), 'export const widget = 1')
  writeFileSync(join(distDir, 'kit', 'kit.js'), 'window.kit = 1')
  mkdirSync(join(distDir, 'dev-wallet', 'assets'), { recursive: true })
  writeFileSync(join(distDir, 'dev-wallet', 'index.html'), '<!doctype html><title>Sandbox Wallet</title>')
  writeFileSync(join(distDir, 'dev-wallet', 'assets', 'index-def456.js'), 'export const wallet = 1')

  let sandbox: Sandbox
  try {
    if (!options.databaseUrl) cpSync(await pgliteTemplate(), join(root, 'data', 'pg'), { recursive: true })
    sandbox = await createSandbox({ port: 0, anvilPort: 0, dataDir: join(root, 'data'), distDir, ...options })
  } catch (error) {
    rmSync(root, { recursive: true, force: true })
    throw error
  }

  const call: TestSandbox['call'] = async (path, init = {}) => {
    const { app = 'demo', secret, ...rest } = init
    const headers = new Headers(rest.headers)
    if (app !== null && !headers.has('x-app-id')) headers.set('x-app-id', app)
    if (!headers.has('x-environment')) headers.set('x-environment', 'development')
    if (!headers.has('x-client-secret') && secret !== null) {
      const backEnd = path.startsWith('/api/v2/') && !headers.has('origin')
      const value = secret ?? (backEnd ? await clientSecretOf(headers.get('x-app-id'), headers.get('x-environment')) : undefined)
      if (value) headers.set('x-client-secret', value)
    }
    if (typeof rest.body === 'string' && !headers.has('content-type')) headers.set('content-type', 'application/json')
    const response = await fetch(`${sandbox.url}${path}`, { ...rest, headers })
    const text = await response.text()
    let body: unknown = text
    if (response.headers.get('content-type')?.includes('json')) body = JSON.parse(text)
    return { status: response.status, headers: response.headers, body }
  }

  const clientSecretOf = async (appId: string | null, environment: string | null) => {
    const { rows } = await sandbox.store.query<{ client_secret: string | null }>('SELECT client_secret FROM apps WHERE app_id = $1 AND environment = $2', [
      appId,
      environment,
    ])
    return rows[0]?.client_secret ?? undefined
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

  const post: TestSandbox['post'] = (path, body, token, app = 'demo') =>
    call(path, {
      method: 'POST',
      app,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: token ? { authorization: `Bearer ${token}` } : {},
    })

  const signUp = async (email: string, app = 'demo'): Promise<CreatedWallet> => {
    const { verificationToken, code } = await requestCode(email, app)
    const login = await post('/api/v2/auth/verify-otp', { verificationToken, otp: code }, undefined, app)
    if (login.status !== 200) throw new Error(`verify-otp failed: ${JSON.stringify(login.body)}`)
    const created = await post('/api/v2/account/create', {}, login.body.data.accessToken, app)
    if (created.status !== 200) throw new Error(`account/create failed: ${JSON.stringify(created.body)}`)
    return { ...created.body.data, address: created.body.data.address[0].address }
  }

  return {
    ...sandbox,
    distDir,
    call,
    requestCode,
    post,
    signUp,
    async dispose() {
      await sandbox.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
}

export const json = (value: unknown) => JSON.stringify(value)

/**
 * SandboxOptions.clientAddressOf for tests that need several machines: a request from 127.0.0.N
 * (N > 1, bound with http.request's localAddress) counts as coming from 192.0.2.N (TEST-NET-1).
 * Without it every loopback source is one client, as a real sandbox sees them.
 */
export const otherMachines = (address: string) => address.replace(/^(::ffff:)?127\.0\.0\.(\d+)$/, (all, _mapped, n) => (n === '1' ? all : `192.0.2.${n}`))

/**
 * A POST to the sandbox sent from `localAddress` (any 127.x address is this machine's own: fetch
 * cannot choose its source address, node:http can). A string body is sent as it is (say its
 * content-type in `headers`), anything else as JSON. Answers the status, headers, the parsed body
 * and how long it took.
 */
export function postFrom(
  sandbox: Pick<Sandbox, 'port'>,
  localAddress: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: any JSON the sandbox answers; each test asserts the shape it expects
): Promise<{ status: number; headers: IncomingHttpHeaders; body: any; ms: number }> {
  const started = Date.now()
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: sandbox.port,
        localAddress,
        method: 'POST',
        path,
        agent: false,
        headers: { host: `127.0.0.1:${sandbox.port}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')), ms: Date.now() - started }),
        )
        res.on('error', reject)
      },
    )
    outgoing.on('error', reject)
    outgoing.end(text)
  })
}

/** A browser's form post (`application/x-www-form-urlencoded`), as `fetch` init. */
export const formPost = (fields: Record<string, string>) => ({
  method: 'POST',
  body: new URLSearchParams(fields).toString(),
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
})

/**
 * An empty, initialised PGlite cluster to copy: creating one takes ~4 s (PGlite initialises the
 * cluster on a new data folder's first open), copying it a few ms. Kept in the temp folder per PGlite version and shared by test files; built in a
 * private folder and renamed into place, so parallel workers never see half a cluster.
 */
async function pgliteTemplate(): Promise<string> {
  const packageJson = join(repoRoot, 'node_modules', '@electric-sql', 'pglite', 'package.json')
  const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version
  const template = join(tmpdir(), `wallet-kit-pglite-template-${version}`)
  if (existsSync(template)) return template
  const building = mkdtempSync(join(tmpdir(), 'wallet-kit-pglite-building-'))
  const { PGlite } = await import('@electric-sql/pglite')
  const db = await PGlite.create(join(building, 'pg'))
  await db.close()
  try {
    renameSync(join(building, 'pg'), template)
  } catch {
    // Another worker finished first; theirs is as good.
  }
  rmSync(building, { recursive: true, force: true })
  return template
}

/** An app's settings for a test: every sign-in method and extra off, unless `overrides` turns it on. */
export const testAppSettings = (overrides: Partial<AppSettings> = {}): AppSettings => ({
  isEmbeddedWalletEnabled: true,
  isAAEnabled: false,
  useWalletKitBrand: false,
  logoUrl: null,
  useEmailLogin: true,
  rampableClientSecret: null,
  showPoweredBy: false,
  google: { enabled: false, clientId: null },
  apple: { enabled: false, clientId: null, redirectUri: null },
  telegram: { enabled: false, botId: null, botUsername: null },
  whatsapp: { enabled: false },
  ...overrides,
})
