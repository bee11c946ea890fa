import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fuzzCase, fuzzSeed, prototypeSnapshot, show, watchUncaught } from '../bridge/fuzz.fixture.ts'
import { startTestSandbox, type TestSandbox } from './sandbox.fixture.ts'
import {
  controlStrings,
  controlUrlRequest,
  fuzzRequest,
  sandboxRoutes,
  sandboxWords,
  textFieldRequest,
  textRequests,
  urlControlStrings,
  type FuzzRequest,
  type Route,
} from './fuzz-requests.fixture.ts'

/**
 * Every route of the sandbox (read from the Hono app itself, the WalletConnect relay left out)
 * given malformed, oversized and wrongly typed bodies, headers, query strings and path params:
 * never a 5xx, a 4xx in the route's error shape, and nothing written to the database. Seeded
 * (bridge/fuzz.fixture.ts): a failure names the seed, the route and the request.
 */
// FUZZ_CASES=<n> runs more per route (exploring a new seed); 40 keep `npm test` near 15 s.
const casesPerRoute = Number(process.env.FUZZ_CASES ?? 40)
const unlimited = { max: 1e9, windowMs: 60_000 }
const uncaught = watchUncaught()
let sandbox: TestSandbox
/** The demo app's client secret and its (publishable) ramp secret. */
let secrets: string[]
let tokens: string[]
/** Real values (the user's address, a crypto id, a currency) that query strings mix in. */
let values: string[]
const routes = sandboxRoutes()
const words = sandboxWords()
const prototypes = prototypeSnapshot()
const routeKeys = new Set(routes.map((r) => `${r.method} ${r.path}`))

beforeAll(async () => {
  // Rate limits off: a 429 would end each route's fuzzing at its first few requests.
  const rateLimits = Object.fromEntries(
    ['codesPerIp', 'verifiesPerIp', 'loginsPerIp', 'failedLoginsPerNameAndIp', 'onrampPagesPerIp', 'onrampPaymentsPerIp', 'handoffsPerIp'].map((rule) => [
      rule,
      unlimited,
    ]),
  )
  sandbox = await startTestSandbox({ rateLimits })
  const config = await sandbox.call('/api/v1/apps/config')
  const { rows } = await sandbox.store.query<{ client_secret: string }>("SELECT client_secret FROM apps WHERE app_id = 'demo' AND environment = 'development'")
  secrets = [rows[0]!.client_secret, config.body.data.rampableClientSecret as string]
  // A user with a wallet, and a second logged in without one yet: their tokens take requests past the bearer checks.
  const user = await sandbox.signUp('fuzz@example.com')
  const { verificationToken, code } = await sandbox.requestCode('fuzz-new@example.com')
  const login = await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
  tokens = [user.walletToken, user.refreshToken, login.body.data.accessToken as string]
  values = [user.address, 'eth-local-1', 'USD', 'IDR', '100', 'true', 'local-1', ...secrets]
})
afterAll(async () => {
  uncaught.stop()
  await sandbox?.dispose()
})

type Answer = { status: number; type: string; body: string }

/** Raw HTTP, so any header (Host, oversized ones) and any body go out as generated. */
function send(req: FuzzRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = {
      host: `127.0.0.1:${sandbox.port}`,
      ...req.headers,
      ...(req.body !== undefined && { 'content-length': String(Buffer.byteLength(req.body)) }),
    }
    // A connection per request: a refusal that closes its connection (431, an unread body) cannot break the next request.
    const outgoing = httpRequest({ host: '127.0.0.1', port: sandbox.port, method: req.method, path: req.path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body: Buffer.concat(chunks).toString('utf8') }))
      res.on('error', reject)
    })
    outgoing.on('error', reject)
    outgoing.end(req.body)
  })
}

/** Every table's row count and a digest of its rows. */
async function database(): Promise<string> {
  const { rows: tables } = await sandbox.store.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1",
  )
  const digests = await Promise.all(
    tables.map(async ({ name }) => {
      const { rows } = await sandbox.store.query<{ n: number; digest: string }>(
        `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM "${name}" t`,
      )
      return `${name}:${rows[0]!.n}:${rows[0]!.digest}`
    }),
  )
  return digests.join('\n')
}

type Shape = 'envelope' | 'html' | 'json-rpc' | 'json-error' | 'text' | 'empty' | 'other'

function shapeOf({ type, body }: Answer): Shape {
  if (body === '') return 'empty'
  if (type.includes('text/html')) return 'html'
  if (type.includes('text/plain')) return 'text'
  if (!type.includes('json')) return 'other'
  let value: unknown
  try {
    value = JSON.parse(body)
  } catch {
    return 'other'
  }
  const v = value as Record<string, unknown>
  if (typeof v?.status === 'number' && typeof v.message === 'string' && 'data' in v) return 'envelope'
  if (v?.jsonrpc === '2.0' || (Array.isArray(value) && value.every((item) => (item as { jsonrpc?: unknown })?.jsonrpc === '2.0'))) return 'json-rpc'
  return typeof v?.error === 'string' ? 'json-error' : 'other'
}

/**
 * The error shape each kind of route answers in: the services' envelope; HTML for the pages the
 * emulators show people; OAuth's `{ error }` at the token endpoints (RFC 6749) and the popup
 * channel's `{ error }`; JSON-RPC errors (HTTP 200) at the chain proxy; plain text for a missing
 * static file. A refusal before routing (unknown host, body too large, no route) is the envelope.
 */
function allowedShapes(route: Route): Shape[] {
  const { path } = route
  if (/^\/oauth\/[a-z]+\/token$/.test(path) || path.startsWith('/popup-channel/')) return ['envelope', 'json-error']
  if (/^\/(oauth|onramp|permission|telegram|widget\/oauth-callback|dev\/inbox)/.test(path)) return ['envelope', 'html']
  if (path.startsWith('/widget/assets/') || path.startsWith('/dev/wallet/assets/')) return ['envelope', 'text']
  if (path.startsWith('/api/v1/bundler/')) return ['envelope', 'json-rpc']
  return ['envelope']
}

/**
 * Routes whose input is opaque or read-only, where a malformed-looking request may still be a valid
 * one (answered 2xx, writing nothing): reads, the chain proxy and the ERC-4337 bundler endpoint
 * (JSON-RPC errors come as 200), the
 * popup channel (any JSON is a message), the OAuth callback page, which relays whatever it was
 * sent to its opener (the frame checks it), and the identity token, whose one field is optional
 * (`{}` with a wallet token is a whole call; it answers a token and writes nothing).
 */
const mayAccept = ({ method, path }: Route) =>
  method === 'GET' ||
  path.startsWith('/rpc/') ||
  path.startsWith('/api/v1/bundler/') ||
  path.startsWith('/popup-channel/') ||
  path === '/widget/oauth-callback.html' ||
  path === '/api/v2/wallet/identity-token'

const seen = new Map<string, Set<string>>()

describe('sandbox routes fuzz', () => {
  test('the route table is read from the app (the WalletConnect relay left out)', () => {
    expect(routes.length).toBeGreaterThan(50)
    expect(routes).toContainEqual({ method: 'POST', path: '/api/v2/wallet/sign-message' })
    expect(routes.some((r) => r.path.startsWith('/walletconnect'))).toBe(false)
  })

  test.each(routes.map((route, index) => [`${route.method} ${route.path}`, route, index] as const))(
    '%s: malformed requests never get a 5xx, get a 4xx in the route’s error shape, and write nothing',
    async (_name, route, routeIndex) => {
      const before = await database()
      const accepted: string[] = []
      for (let i = 0; i < casesPerRoute; i++) {
        const index = routeIndex * 1_000 + i
        const req = fuzzRequest(fuzzCase(fuzzSeed, index), route, { words, secrets, ownOrigin: sandbox.url, tokens, values })
        const where = `case ${index} of seed ${fuzzSeed} (FUZZ_SEED=${fuzzSeed}): ${req.method} ${show(req.path, 300)} headers ${show(req.headers, 400)} body ${show(req.body ?? '', 300)}`
        const answer = await send(req).catch((error: Error) => {
          throw new Error(`${where}\nno answer: ${error.message}`)
        })
        const shape = shapeOf(answer)
        seen.set(`${route.method} ${route.path}`, (seen.get(`${route.method} ${route.path}`) ?? new Set()).add(`${answer.status} ${shape}`))
        expect(answer.status, `${where}\nanswered ${answer.status} ${show(answer.body, 300)}`).toBeLessThan(500)
        // Node itself refuses headers over its 16 KB limit (431, no body) before the app sees them: http/listen.ts would need a clientError handler.
        if (answer.status === 431) expect(shape).toBe('empty')
        else if (answer.status >= 400)
          expect(allowedShapes(route), `${where}\nanswered ${answer.status} as ${shape}: ${show(answer.body, 300)}`).toContain(shape)
        else if (!(mayAccept({ method: req.method, path: route.path }) && routeKeys.has(`${req.method} ${route.path}`)))
          throw new Error(`${where}\naccepted: ${answer.status} ${show(answer.body, 300)}`)
        if (answer.status < 400) accepted.push(where)
      }
      expect(await database(), `the database changed; the requests answered below 400:\n${accepted.join('\n')}`).toBe(before)
    },
  )

  test('control characters in every text field of the routes that take text: a 400 naming the field, nothing written', async () => {
    const before = await database()
    const failures: string[] = []
    for (const template of textRequests)
      for (const [field, good] of Object.entries(template.fields))
        for (const bad of controlStrings) {
          // A lone surrogate has no UTF-8 form: a form or URL cannot carry one (only a JSON escape can).
          if (template.kind !== 'json' && /[\uD800-\uDFFF]/.test(bad)) continue
          for (const value of [`${good}${bad}`, bad]) {
            const req = textFieldRequest(template, field, value, { secrets, tokens })
            const answer = await send(req)
            let message = ''
            try {
              message = JSON.parse(answer.body).message ?? ''
            } catch {}
            if (answer.status !== 400 || !message.includes(field))
              failures.push(`${template.method} ${template.path} ${field}=${JSON.stringify(value)}: ${answer.status} ${show(answer.body, 200)}`)
          }
        }
    // Very long text: refused, never a 5xx.
    for (const template of textRequests)
      for (const field of Object.keys(template.fields)) {
        const answer = await send(textFieldRequest(template, field, 'x'.repeat(100_000), { secrets, tokens }))
        if (answer.status >= 500 || answer.status < 400)
          failures.push(`${template.method} ${template.path} ${field}=x*100000: ${answer.status} ${show(answer.body, 200)}`)
      }
    expect(failures, failures.join('\n')).toEqual([])
    expect(await database()).toBe(before)
  })

  test('control characters in every route’s path params, query strings and cookie: never a 5xx, a 4xx in the route’s error shape', async () => {
    const before = await database()
    const chunks = Array.from({ length: Math.ceil(words.length / 50) }, (_, i) => words.slice(i * 50, i * 50 + 50))
    const failures: string[] = []
    for (const [routeIndex, route] of routes.entries()) {
      // GET routes read queries: every word, in chunks; others get their path params and one chunk.
      const rounds = route.method === 'GET' ? 2 * chunks.length : 2 * urlControlStrings.length
      for (let i = 0; i < rounds; i++) {
        const value = urlControlStrings[(routeIndex + i) % urlControlStrings.length]!
        // Every other round, only the cookie carries the control character (path params a plain word, no query).
        const req =
          i % 2 ? controlUrlRequest(route, value, chunks[(routeIndex + Math.floor(i / 2)) % chunks.length]!) : controlUrlRequest(route, value, [], 'x')
        const answer = await send(req)
        const shape = shapeOf(answer)
        if (answer.status >= 500 || (answer.status >= 400 && answer.status !== 431 && !allowedShapes(route).includes(shape)))
          failures.push(`${req.method} ${show(req.path, 200)}: ${answer.status} ${shape} ${show(answer.body, 200)}`)
      }
    }
    expect(failures, failures.join('\n')).toEqual([])
    expect(await database()).toBe(before)
  })

  test('nothing was thrown or left unhandled, and no prototype changed', () => {
    expect(uncaught.caught).toEqual([])
    expect(prototypeSnapshot()).toBe(prototypes)
    // FUZZ_REPORT=1: what each route answered (status and shape), for the record.
    if (process.env.FUZZ_REPORT) console.log([...seen].map(([route, answers]) => `${route}: ${[...answers].sort().join(', ')}`).join('\n'))
  })
})
