import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { prototypeKeys, type Fuzz } from '../bridge/fuzz.fixture.ts'
import type { Deps } from './context.ts'
import { repoRoot } from './server.ts'
import { createApp } from './app.ts'

/**
 * Test support for sandbox/routes-fuzz.test.ts: the sandbox's routes, read from the Hono app
 * createApp builds, and malformed requests for them (bodies, headers, query strings, path params).
 */
export type Route = { method: string; path: string }
export type FuzzRequest = { method: string; path: string; headers: Record<string, string>; body?: string }

/** The WalletConnect relay is left out: it is being written elsewhere (services/walletconnect/). */
const skipped = (path: string) => path.startsWith('/walletconnect')

/** Every route (method and path) of the app; middlewares (`ALL`) are not routes. */
export function sandboxRoutes(): Route[] {
  // Only the route table is read: no handler runs, so the dependencies are an inert stand-in.
  const inert: unknown = new Proxy(() => inert, { get: (_target, key) => (key === 'then' ? undefined : inert), apply: () => inert })
  const seen = new Set<string>()
  return createApp(inert as Deps, false)
    .routes.filter(({ method, path }) => method !== 'ALL' && !skipped(path))
    .filter(({ method, path }) => !seen.has(`${method} ${path}`) && Boolean(seen.add(`${method} ${path}`)))
    .map(({ method, path }) => ({ method, path }))
}

/**
 * Field, query and header names the sandbox's own code spells out: every quoted identifier in its
 * services and emulators (a fuzzing dictionary, so bodies name the fields the routes read).
 */
export function sandboxWords(): string[] {
  const words = new Set<string>()
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (entry.name !== 'walletconnect') walk(path)
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        for (const [, word] of readFileSync(path, 'utf8').matchAll(/'([a-zA-Z_][a-zA-Z0-9_-]{1,40})'/g)) words.add(word!)
      }
    }
  }
  for (const dir of ['services', 'emulators', 'http']) walk(join(repoRoot, 'sandbox', dir))
  return [...words].sort()
}

const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'multipart/form-data',
  'text/plain',
  'application/jsonx',
  'APPLICATION/JSON',
  ';',
  '',
]
const authorizations = [
  'Bearer',
  'Bearer ',
  'Bearer x.y.z',
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIiwia2luZCI6IndhbGxldCJ9.',
  'Basic Zm9vOmJhcg==',
  'bearer null',
  `Bearer ${'a'.repeat(8_000)}`,
  'Bearer __proto__',
]

/** encodeURIComponent, with lone surrogates (which it refuses) replaced first. */
const encode = (text: string) => encodeURIComponent(text.replace(/[\uD800-\uDFFF]/g, '?'))

/** A header value Node will send: printable Latin-1, no CR/LF. */
const headerSafe = (value: string) => value.replace(/[^\x20-\x7e]/g, '?')

/** A JSON body: an object naming the routes' fields with values of the wrong type, or not an object at all. */
function jsonBody(f: Fuzz, words: readonly string[]): string {
  switch (f.int(6)) {
    case 0:
      return f.pick([
        '{',
        '{"a":',
        '[',
        '{"a":1,}',
        "{'a':1}",
        'NaN',
        '\uFEFF{}',
        '{"a":1}{"b":2}',
        '{"__proto__":{"isAdmin":true}}',
        '{"constructor":{"prototype":{"x":1}}}',
      ])
    case 1:
      return f.pick(['null', '[]', '"x"', '1', 'true', '1e999', '[{}]', '{}'])
    case 2:
      return f.chance(0.5) ? `${'['.repeat(50_000)}${']'.repeat(50_000)}` : JSON.stringify({ [f.pick(words)]: 'x'.repeat(70_000 + f.int(100_000)) })
    default: {
      // One field no route takes in this shape (a list of a list, a number and null) makes every such body malformed.
      const body: Record<string, unknown> = { [f.pick(words)]: [[{}], -1, null] }
      for (let i = 0; i < f.int(4); i++) {
        const key = f.chance(0.8) ? f.pick(words) : f.pick(prototypeKeys)
        // Strings mostly where the routes want other types; objects, lists and numbers where they want strings.
        Object.defineProperty(body, key, { value: f.value('json', 1), enumerable: true, writable: true, configurable: true })
      }
      return JSON.stringify(body)
    }
  }
}

function formBody(f: Fuzz, words: readonly string[]): string {
  const pairs = Array.from({ length: 1 + f.int(4) }, () => `${encode(f.chance(0.8) ? f.pick(words) : f.pick(prototypeKeys))}=${encode(f.string())}`)
  return f.pick([pairs.join('&'), `${pairs.join('&')}&%ZZ=%&&=`, 'a=b&a=c&a[]=d', `x=${'y'.repeat(40_000)}`])
}

/** A path parameter or wildcard segment: ids, chain ids, addresses and files gone wrong. */
const param = (f: Fuzz) =>
  encode(
    f.pick([
      '31337',
      '1',
      '0',
      '-1',
      'abc',
      '0x7a69',
      '31337.0',
      '..',
      '../../package.json',
      '%00',
      'a/b',
      `0x${f.hex(40)}`,
      `0x${f.hex(39)}`,
      'x'.repeat(300),
      ...prototypeKeys,
      f.string() || 'x',
    ]),
  )

function queryString(f: Fuzz, words: readonly string[], values: readonly string[]): string {
  if (f.chance(0.4)) return ''
  const value = () => f.pick([f.string(), f.pick(values), JSON.stringify(f.value('json', 3)), '-1', '1e309', 'NaN', '0x', '', 'x'.repeat(3_000)])
  const pairs = Array.from({ length: 1 + f.int(5) }, () => {
    const key = f.chance(0.8) ? f.pick(words) : f.pick([...prototypeKeys, '__proto__[isAdmin]', 'a[]', 'a[b]'])
    return `${encode(key)}=${encode(value())}`
  })
  return `?${pairs.join('&')}${f.chance(0.1) ? '&%ZZ&=&&' : ''}`
}

/**
 * One malformed request for `route`. Usually with the demo app's headers (and its client secret)
 * so it gets past the guards into the route's own checks; sometimes with those headers wrong.
 */
export function fuzzRequest(
  f: Fuzz,
  route: Route,
  context: { words: readonly string[]; secrets: readonly string[]; ownOrigin: string; tokens: readonly string[]; values: readonly string[] },
): FuzzRequest {
  const { words } = context
  const path = route.path.replace(/:[a-zA-Z]+/g, () => param(f)).replace(/\*$/, () => `${param(f)}${f.chance(0.3) ? `/${param(f)}` : ''}`)
  const headers: Record<string, string> = {}
  const maybe = (p: number, name: string, values: () => string) => {
    if (f.chance(p)) headers[name] = headerSafe(values())
  }
  maybe(0.85, 'x-app-id', () => (f.chance(0.85) ? 'demo' : f.pick(['', 'Demo', 'nope', ...prototypeKeys, 'x'.repeat(500)])))
  maybe(0.85, 'x-environment', () => (f.chance(0.85) ? 'development' : f.pick(['', 'prod', 'PRODUCTION', ...prototypeKeys])))
  maybe(0.5, 'x-client-secret', () => (f.chance(0.7) ? f.pick(context.secrets) : f.pick(['', 'x', `${context.secrets[0]}x`, 'x'.repeat(5_000)])))
  // Often a real token of a signed-up user, so the routes behind the bearer check see the body too.
  maybe(0.6, 'authorization', () => (f.chance(0.6) ? `Bearer ${f.pick(context.tokens)}` : f.pick(authorizations)))
  maybe(0.3, 'origin', () => f.pick([context.ownOrigin, 'http://evil.example', 'null', 'http://localhost:5173', '']))
  maybe(0.1, 'sec-fetch-site', () => f.pick(['same-origin', 'cross-site', 'none', '']))
  maybe(0.1, 'x-timestamp', () => f.pick(['0', '-1', 'abc', String(Date.now()), '1e20']))
  maybe(0.1, 'x-signature', () => f.pick(['', 'abc', 'x'.repeat(2_000)]))
  maybe(0.05, 'x-huge', () => 'h'.repeat(8_000))
  // A Host that is none of the sandbox's own names is refused whatever the route (DNS rebinding).
  maybe(0.03, 'host', () => f.pick(['evil.example', 'localhost', '127.0.0.1:1', '[::1]']))
  const method = f.chance(0.1) ? f.pick(['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) : route.method
  if (method === 'GET' || method === 'HEAD') {
    if (f.chance(0.2)) headers['content-type'] = f.pick(contentTypes)
    return { method, path: `${path}${queryString(f, words, context.values)}`, headers }
  }
  const form = f.chance(0.3)
  if (f.chance(0.9)) headers['content-type'] = f.chance(0.6) ? (form ? 'application/x-www-form-urlencoded' : 'application/json') : f.pick(contentTypes)
  // An empty JSON body is `{}`, a valid call for some routes: sent empty only as some other type.
  if (f.chance(0.08))
    return {
      method,
      path: `${path}${queryString(f, words, context.values)}`,
      headers: { ...headers, 'content-type': f.pick(['text/plain', 'application/xml', ';']) },
      body: '',
    }
  const body = form ? formBody(f, words) : jsonBody(f, words)
  return { method, path: `${path}${queryString(f, words, context.values)}`, headers, body }
}

/**
 * Text no field takes (http/exchange.ts refuseControlText): NUL, other C0 controls, DEL, a C1 control,
 * lone surrogates (halves of a UTF-16 pair, which no UTF-8 text holds), an ANSI escape.
 */
export const controlStrings = ['\u0000', 'a\u0000b', '\u0001', '\u0008', '\u000b', '\u001b[31m', '\u007f', '\u009b', '\ud800', 'x\udfffy'] as const

/** Control characters a URL can carry (percent-encoded); a lone surrogate has no UTF-8 form, so none here. */
export const urlControlStrings = ['\u0000', 'a\u0001b', '\u007f', '\u009b'] as const

/**
 * A well-formed request for each route that takes text, so a field's bad value reaches as deep as
 * a good one would: `fields` are its string fields (each fuzzed in turn), sent as JSON, a form or a
 * query string; `bearer` names one of the fuzz suite's tokens (0 wallet, 2 access), `app` sends the
 * demo app's headers and client secret. Routes behind a request signature (smart account, ramp)
 * are left out: the signature fails first; the control-character check runs before it anyway.
 */
export type TextRequest = {
  method: 'GET' | 'POST'
  path: string
  kind: 'json' | 'form' | 'query'
  fields: Record<string, string>
  bearer?: 0 | 2
  app?: boolean
}

const network = 'local-1'
const someone = '0x000000000000000000000000000000000000dEaD'
export const textRequests: TextRequest[] = [
  { method: 'POST', path: '/api/v2/auth/login-otp', kind: 'form', fields: { email: 'someone@example.com' }, app: true },
  { method: 'POST', path: '/api/v2/auth/verify-otp', kind: 'json', fields: { verificationToken: 'token', otp: '123456' }, app: true },
  { method: 'POST', path: '/api/v2/auth/login-whatsapp', kind: 'json', fields: { phoneNumber: '+6281234567890' }, app: true },
  { method: 'POST', path: '/api/v2/auth/verify-whatsapp', kind: 'json', fields: { verificationToken: 'token', otp: '123456' }, app: true },
  { method: 'POST', path: '/api/v2/auth/login', kind: 'json', fields: { username: 'someone', password: 'password123' }, app: true },
  { method: 'POST', path: '/api/v2/auth/register', kind: 'json', fields: { username: 'someone', password: 'password123' }, app: true },
  { method: 'POST', path: '/api/v2/auth/google', kind: 'json', fields: { credential: 'a.b.c' }, app: true },
  { method: 'POST', path: '/api/v2/auth/apple', kind: 'json', fields: { code: 'code' }, app: true },
  { method: 'POST', path: '/api/v2/auth/telegram', kind: 'json', fields: { id: '1', first_name: 'Someone', username: 'someone', hash: 'ab' }, app: true },
  { method: 'POST', path: '/api/v2/auth/handoff', kind: 'json', fields: { channel: 'channel' }, bearer: 0, app: true },
  { method: 'POST', path: '/api/v2/account/recover', kind: 'form', fields: { secret0: `0x${'1'.repeat(64)}` }, bearer: 0, app: true },
  { method: 'POST', path: '/api/v2/wallet/sign-message', kind: 'json', fields: { network, message: 'hello' }, bearer: 0, app: true },
  { method: 'POST', path: '/api/v2/wallet/sign-typed-data', kind: 'json', fields: { network, data: '{}' }, bearer: 0, app: true },
  { method: 'POST', path: '/api/v2/wallet/send-coin', kind: 'json', fields: { network, to: someone, amount: '0.1' }, bearer: 0, app: true },
  { method: 'POST', path: '/api/v2/wallet/balance-token', kind: 'json', fields: { network, tokenAddress: someone }, bearer: 0, app: true },
  { method: 'POST', path: '/api/v2/wallet/estimate-gas', kind: 'json', fields: { network, type: 'coin', to: someone, amount: '1' }, bearer: 0, app: true },
  { method: 'POST', path: '/api/v2/wallet/address', kind: 'json', fields: { network }, bearer: 0, app: true },
  { method: 'POST', path: '/api/v2/wallet/refresh', kind: 'json', fields: { refreshToken: 'token' }, app: true },
  { method: 'POST', path: '/api/v2/wallet/refresh-rampable', kind: 'json', fields: { rampableAccessToken: 'token' }, bearer: 0, app: true },
  { method: 'GET', path: '/dev/api/inbox', kind: 'query', fields: { to: 'someone@example.com' } },
  { method: 'POST', path: `/dev/api/wallets/${someone}/permission`, kind: 'json', fields: { origin: 'http://localhost:5173' } },
  { method: 'POST', path: '/oauth/google/authorize', kind: 'form', fields: { email: 'someone@example.com', name: 'Someone' } },
  { method: 'POST', path: '/oauth/google/token', kind: 'form', fields: { grant_type: 'authorization_code', code: 'code', client_id: 'demo' } },
  { method: 'POST', path: '/telegram/login', kind: 'form', fields: { origin: 'http://localhost:5173', bot_id: '1', id: '1', first_name: 'Someone' } },
  { method: 'POST', path: '/permission/accept', kind: 'form', fields: { token: 'token' } },
  { method: 'POST', path: '/onramp', kind: 'form', fields: { order: 'order' } },
  { method: 'GET', path: '/oauth/google/authorize', kind: 'query', fields: { client_id: 'demo', redirect_uri: 'http://localhost:5173/', state: 'state' } },
]

/** `template` with `field` set to `value`, as a request (headers, bearer token and body or query). */
export function textFieldRequest(
  template: TextRequest,
  field: string,
  value: string,
  context: { secrets: readonly string[]; tokens: readonly string[] },
): FuzzRequest {
  const fields = { ...template.fields, [field]: value }
  const headers: Record<string, string> = {}
  if (template.app) Object.assign(headers, { 'x-app-id': 'demo', 'x-environment': 'development', 'x-client-secret': context.secrets[0]! })
  if (template.bearer !== undefined) headers.authorization = `Bearer ${context.tokens[template.bearer]}`
  // A lone surrogate has no UTF-8 form in a URL or a form: it reaches a route only as a JSON \u escape.
  const form = Object.entries(fields)
    .map(([key, text]) => `${encode(key)}=${encode(text)}`)
    .join('&')
  if (template.kind === 'query') return { method: template.method, path: `${template.path}?${form}`, headers }
  if (template.kind === 'form')
    return { method: template.method, path: template.path, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: form }
  return { method: template.method, path: template.path, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(fields) }
}

/**
 * `route` with every path param set to `value`, the given query words set to it too, and the
 * cookie the sandbox reads (the on-ramp's browser id; Hono percent-decodes cookie values).
 */
export function controlUrlRequest(route: Route, value: string, queryWords: readonly string[], pathValue = value): FuzzRequest {
  const path = route.path.replace(/:[a-zA-Z]+/g, () => encodeURIComponent(pathValue)).replace(/\*$/, () => encodeURIComponent(pathValue))
  const query = queryWords.map((word) => `${encodeURIComponent(word)}=${encodeURIComponent(value)}`).join('&')
  const headers = {
    cookie: `onramp_browser=${encodeURIComponent(value)}`,
    ...(route.method === 'POST' && { 'content-type': 'application/x-www-form-urlencoded' }),
  }
  return { method: route.method, path: query ? `${path}?${query}` : path, headers, ...(route.method === 'POST' && { body: 'order=x' }) }
}
