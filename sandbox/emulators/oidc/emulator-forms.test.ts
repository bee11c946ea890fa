import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { formPost, startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

// The sign-in emulators' form posts (Google, Apple, Telegram), attacked by any page: before, each
// post from anywhere stored an authorisation code that was never deleted, with no limit.

let sandbox: TestSandbox
let callback: string
const budget = 10

beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimits: { loginsPerIp: { max: budget, windowMs: 60_000 } } })
  callback = `${sandbox.url}/widget/oauth-callback.html`
})
afterAll(() => sandbox?.dispose())

const googleFields = (email: string) => ({
  client_id: 'demo-google-client',
  redirect_uri: callback,
  state: 's',
  nonce: 'n',
  response_type: 'code',
  response_mode: 'query',
  email,
})

function post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const init = formPost(fields)
  return fetch(`${sandbox.url}${path}`, { ...init, headers: { ...init.headers, ...headers }, redirect: 'manual' })
}

const codeCount = async () => (await sandbox.store.query<{ n: number }>('SELECT count(*)::int AS n FROM oauth_codes')).rows[0]!.n

describe("the sign-in emulators' forms, posted by any page", () => {
  test('a foreign page is refused (403) and nothing is stored; the emulator page itself (Origin null, same-origin) is not', async () => {
    const before = await codeCount()
    for (const provider of ['google', 'apple']) {
      const fields = { ...googleFields('victim@example.com'), client_id: `demo-${provider}-client` }
      for (const headers of <Record<string, string>[]>[
        { origin: 'https://evil.example' },
        { origin: 'null' },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        // Another port of the same host is another origin: "same-site", not "same-origin".
        { origin: 'null', 'sec-fetch-site': 'same-site' },
      ]) {
        const refused = await post(`/oauth/${provider}/authorize`, fields, headers)
        expect(refused.status).toBe(403)
        expect(await refused.text()).toContain('sign-in page itself may post this form')
      }
    }
    const telegram = await post(
      '/telegram/login',
      { bot_id: '7000000001', origin: 'http://localhost:5173', id: '100000001', first_name: 'Alice' },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    )
    expect(telegram.status).toBe(403)
    expect(await codeCount()).toBe(before)

    // What a browser sends from the emulator's own page (its no-referrer policy makes Origin "null").
    const own = await post('/oauth/google/authorize', googleFields('alice@example.com'), { origin: 'null', 'sec-fetch-site': 'same-origin' })
    expect(own.status).toBe(302)
    expect(new URL(own.headers.get('location')!).searchParams.get('code')).toMatch(/\S/)
    const ownOrigin = await post('/oauth/google/authorize', googleFields('alice@example.com'), { origin: sandbox.url })
    expect(ownOrigin.status).toBe(302)
    expect(await codeCount()).toBe(before + 2)
  })

  test('expired codes are deleted: the table holds only the last few minutes', async () => {
    for (let i = 0; i < 3; i++) expect((await post('/oauth/google/authorize', googleFields('aged@example.com'))).status).toBe(302)
    // Every code stored so far but one is past its 5 minutes; the next code stored clears them.
    await sandbox.store.query(
      "UPDATE oauth_codes SET expires_at = now() - interval '1 second' WHERE code_hash <> (SELECT code_hash FROM oauth_codes ORDER BY expires_at DESC LIMIT 1)",
    )
    const fresh = await post('/oauth/google/authorize', googleFields('aged@example.com'))
    expect(fresh.status).toBe(302)
    const { rows } = await sandbox.store.query<{ expired: number; live: number }>(
      'SELECT count(*) FILTER (WHERE expires_at <= now())::int AS expired, count(*) FILTER (WHERE expires_at > now())::int AS live FROM oauth_codes',
    )
    expect(rows[0]).toEqual({ expired: 0, live: 2 })
    // The fresh code still works.
    const code = new URL(fresh.headers.get('location')!).searchParams.get('code')!
    const exchanged = await fetch(
      `${sandbox.url}/oauth/google/token`,
      formPost({ grant_type: 'authorization_code', code, redirect_uri: callback, client_id: 'demo-google-client' }),
    )
    expect(exchanged.status).toBe(200)
  })

  test('many posts from one address: 429 once the budget is spent, and nothing more is stored', async () => {
    // The budget is shared by the tests in this file (they run in order): spend what is left of it.
    const statuses: number[] = []
    for (let i = 0; i < budget + 4; i++) statuses.push((await post('/oauth/google/authorize', googleFields(`flood${i}@example.com`))).status)
    const firstRefusal = statuses.indexOf(429)
    expect(firstRefusal).toBeGreaterThan(0)
    expect(statuses.slice(0, firstRefusal).every((status) => status === 302)).toBe(true)
    expect(statuses.slice(firstRefusal).every((status) => status === 429)).toBe(true)
    const stored = await codeCount()
    const refused = await post('/oauth/apple/authorize', { ...googleFields('more@example.com'), client_id: 'demo-apple-client' })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    const telegram = await post('/telegram/login', { bot_id: '7000000001', origin: 'http://localhost:5173', id: '100000001', first_name: 'Alice' })
    expect(telegram.status).toBe(429)
    expect(await codeCount()).toBe(stored)
  })
})
