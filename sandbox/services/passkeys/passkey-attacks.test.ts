import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { softwareAuthenticator, type Bend } from './authenticator.fixture.ts'
import { passkeyStepUp } from './passkey-step-up.fixture.ts'
import { pendingPerUser } from './queries.ts'

// The shortcuts around a passkey the service refuses, each with nothing handed out and nothing
// stored: another origin, a replay, an expired or someone else's challenge, another user's
// credential, a clone's counter, an unverified user, a page the app does not allow.

let sandbox: TestSandbox
let stepUp: ReturnType<typeof passkeyStepUp>
beforeAll(async () => {
  sandbox = await startTestSandbox()
  stepUp = passkeyStepUp(sandbox)
})
afterAll(() => sandbox?.dispose())

type Authenticator = ReturnType<typeof softwareAuthenticator>

async function withPasskey(email: string) {
  const wallet = await sandbox.signUp(email)
  const user = { email, walletToken: wallet.walletToken }
  const authenticator = softwareAuthenticator({ origin: sandbox.url })
  const options = await stepUp.options(user)
  const registered = await sandbox.post('/api/v2/wallet/passkeys', { credential: authenticator.register(options.body.data) }, wallet.walletToken)
  expect(registered.status).toBe(200)
  return { wallet, user, authenticator }
}

const signInOptions = async () => (await sandbox.post('/api/v2/auth/passkey/options', {})).body.data
const verify = (credential: unknown) => sandbox.post('/api/v2/auth/passkey/verify', { credential })
const signIn = async (authenticator: Authenticator, bend: Bend = {}, credential = authenticator.credentials.at(-1)) =>
  verify(authenticator.assert(await signInOptions(), credential, bend))
const storedPasskeys = async (userOf: string) =>
  (await sandbox.store.query('SELECT p.credential_id FROM passkey_credentials p JOIN wallets w ON w.user_id = p.user_id WHERE w.address = $1', [userOf])).rows
const sessions = async () => Number((await sandbox.store.query<{ n: string }>('SELECT count(*) AS n FROM refresh_tokens')).rows[0]!.n)

/** A refused sign-in: 401 or 400 with no tokens, and no session started. */
async function expectRefused(answer: Promise<{ status: number; body: { message: string; data?: unknown } }>, message: RegExp, before: number) {
  const { status, body } = await answer
  expect([400, 401, 403]).toContain(status)
  expect(body.message).toMatch(message)
  expect(JSON.stringify(body)).not.toMatch(/walletToken|refreshToken|accessToken/)
  expect(await sessions()).toBe(before)
}

describe('passkey sign-in refuses', () => {
  let user: Awaited<ReturnType<typeof withPasskey>>
  beforeAll(async () => {
    user = await withPasskey('passkey-victim@example.com')
  })

  test('an assertion made for another origin (a phishing page’s clientDataJSON)', async () => {
    await expectRefused(signIn(user.authenticator, { origin: 'http://localhost:1' }), /origin/, await sessions())
    await expectRefused(signIn(user.authenticator, { origin: 'https://wallet.example' }), /origin/, await sessions())
  })

  test('an assertion for another RP ID', async () => {
    await expectRefused(signIn(user.authenticator, { rpId: 'example.com' }), /RP ID/i, await sessions())
  })

  test('the same assertion twice (its challenge is used once)', async () => {
    const assertion = user.authenticator.assert(await signInOptions())
    expect((await verify(assertion)).status).toBe(200)
    await expectRefused(verify(assertion), /expired or was already used/, await sessions())
  })

  test('an expired challenge', async () => {
    const options = await signInOptions()
    await sandbox.store.query("UPDATE passkey_challenges SET expires_at = clock_timestamp() - interval '1 second' WHERE challenge = $1", [options.challenge])
    await expectRefused(verify(user.authenticator.assert(options)), /expired or was already used/, await sessions())
  })

  test('a challenge the service never made', async () => {
    await expectRefused(signIn(user.authenticator, { challenge: Buffer.from('made up by the attacker').toString('base64url') }), /expired/, await sessions())
  })

  test('a registration challenge answered as a sign-in', async () => {
    const options = (await stepUp.options(user.user)).body.data
    await expectRefused(verify(user.authenticator.assert(options)), /expired or was already used/, await sessions())
  })

  test('a signature count that does not go up (a cloned authenticator)', async () => {
    expect((await signIn(user.authenticator)).status).toBe(200)
    const seen = user.authenticator.credentials.at(-1)!.counter
    await expectRefused(signIn(user.authenticator, { counter: seen }), /counter value/, await sessions())
    await expectRefused(signIn(user.authenticator, { counter: seen - 1 }), /counter value/, await sessions())
  })

  test('an assertion without user verification', async () => {
    await expectRefused(signIn(user.authenticator, { userVerified: false }), /user could not be verified/, await sessions())
  })

  test('another user’s credential: named with a signature of another key, or a user handle of another account', async () => {
    const other = await withPasskey('passkey-attacker@example.com')
    const victim = user.authenticator.credentials.at(-1)!
    await expectRefused(signIn(user.authenticator, { signWith: other.authenticator.credentials[0]! }), /^Passkey not verified$/, await sessions())
    await expectRefused(signIn(other.authenticator, { userHandle: victim.userHandle }), /another account/, await sessions())
  })

  test('an assertion from a frame under a page the app does not allow', async () => {
    await expectRefused(signIn(user.authenticator, { topOrigin: 'https://evil.example' }), /does not allow/, await sessions())
    // Under a page the demo app allows, the same passkey signs in.
    const allowed = (await sandbox.call('/api/v1/apps/config')).body.data.allowedOrigins as string[]
    const page = allowed.find((o) => !o.includes('*'))!
    expect((await signIn(user.authenticator, { topOrigin: page })).status).toBe(200)
  })
})

describe('passkey registration refuses', () => {
  test('another origin, an unverified user, another user’s challenge, a used challenge: nothing is stored', async () => {
    const wallet = await sandbox.signUp('passkey-register@example.com')
    const other = await sandbox.signUp('passkey-register-other@example.com')
    const authenticator = softwareAuthenticator({ origin: sandbox.url })
    const mineUser = { email: 'passkey-register@example.com', walletToken: wallet.walletToken }
    const otherUser = { email: 'passkey-register-other@example.com', walletToken: other.walletToken }
    const options = async (user = mineUser) => (await stepUp.options(user)).body.data
    const register = (credential: unknown, token = wallet.walletToken) => sandbox.post('/api/v2/wallet/passkeys', { credential }, token)

    expect((await register(authenticator.register(await options(), { origin: 'https://wallet.example' }))).body.message).toMatch(/origin/)
    expect((await register(authenticator.register(await options(), { rpId: 'example.com' }))).body.message).toMatch(/RP ID/i)
    expect((await register(authenticator.register(await options(), { userVerified: false }))).body.message).toMatch(/user could not be verified/)
    expect((await register(authenticator.register(await options(), { type: 'webauthn.get' }))).status).toBe(400)
    // Another user's challenge cannot add a passkey to this account, nor this one's to theirs.
    expect((await register(authenticator.register(await options(otherUser)))).body.message).toMatch(/expired or was already used/)
    const mine = authenticator.register(await options())
    expect((await register(mine, other.walletToken)).body.message).toMatch(/expired or was already used/)
    expect(await storedPasskeys(wallet.address)).toEqual([])
    expect(await storedPasskeys(other.address)).toEqual([])
    // Its own user can still answer it, once.
    expect((await register(mine)).status).toBe(200)
    expect((await register(mine)).body.message).toMatch(/expired or was already used/)
    expect(await storedPasskeys(wallet.address)).toHaveLength(1)
  })

  test('a credential already registered, to this or another account', async () => {
    const first = await sandbox.signUp('passkey-dup-1@example.com')
    const second = await sandbox.signUp('passkey-dup-2@example.com')
    const users = new Map([
      [first.walletToken, { email: 'passkey-dup-1@example.com', walletToken: first.walletToken }],
      [second.walletToken, { email: 'passkey-dup-2@example.com', walletToken: second.walletToken }],
    ])
    const authenticator = softwareAuthenticator({ origin: sandbox.url })
    const optionsOf = async (token: string) => (await stepUp.options(users.get(token)!)).body.data
    const made = authenticator.register(await optionsOf(first.walletToken))
    expect((await sandbox.post('/api/v2/wallet/passkeys', { credential: made }, first.walletToken)).status).toBe(200)
    const existing = authenticator.credentials[0]!
    // The same credential again, under fresh challenges of either user.
    for (const token of [first.walletToken, second.walletToken]) {
      const answer = await sandbox.post('/api/v2/wallet/passkeys', { credential: authenticator.register(await optionsOf(token), { again: existing }) }, token)
      expect(answer.status).toBe(409)
      expect(answer.body.message).toMatch(/already registered/)
    }
    // A response naming one credential id while attesting another.
    const other = authenticator.register(await optionsOf(second.walletToken))
    const mismatched = await sandbox.post('/api/v2/wallet/passkeys', { credential: { ...other, id: made.id, rawId: made.id } }, second.walletToken)
    expect(mismatched.status).toBe(400)
    expect(await storedPasskeys(first.address)).toHaveLength(1)
    expect(await storedPasskeys(second.address)).toEqual([])
  })

  test('another user cannot remove a passkey', async () => {
    const { wallet, authenticator } = await withPasskey('passkey-keep@example.com')
    const intruder = await sandbox.signUp('passkey-intruder@example.com')
    const id = authenticator.credentials[0]!.id
    // With a proof of their own, earned for this very id: the passkey is still not theirs.
    const answer = await stepUp.removeWithProof({ email: 'passkey-intruder@example.com', walletToken: intruder.walletToken }, id)
    expect(answer.status).toBe(404)
    expect(await storedPasskeys(wallet.address)).toHaveLength(1)
    expect((await signIn(authenticator)).status).toBe(200)
  })
})

describe('passkey input and cost', () => {
  test('malformed credentials are 400 with a clear message and start nothing: other base64 alphabets, oversized fields, __proto__, a clientDataJSON that is not JSON', async () => {
    const { authenticator } = await withPasskey('passkey-input@example.com')
    const good = authenticator.assert(await signInOptions()) as { response: Record<string, string> } & Record<string, unknown>
    const before = await sessions()
    const cases: [unknown, RegExp][] = [
      [{ ...good, response: { ...good.response, signature: `${good.response.signature}+/=` } }, /signature must be base64url/],
      [{ ...good, response: { ...good.response, clientDataJSON: 'A'.repeat(5000) } }, /clientDataJSON is too long/],
      [{ ...good, response: { ...good.response, clientDataJSON: Buffer.from('not json').toString('base64url') } }, /clientDataJSON is not JSON/],
      [{ ...good, rawId: 'AAAA' }, /rawId must equal credential.id/],
      [{ ...good, type: 'password' }, /credential.type/],
      [JSON.parse(`{"__proto__": {"type": "public-key"}, "id": "${good.id}"}`), /credential.type/],
      ['a string', /credential must be an object/],
    ]
    for (const [credential, message] of cases) {
      const answer = await verify(credential)
      expect(answer.status, JSON.stringify(answer.body)).toBe(400)
      expect(answer.body.message).toMatch(message)
    }
    expect((await sandbox.post('/api/v2/auth/passkey/verify', { credential: good, extra: 1 })).status).toBe(400)
    expect(await sessions()).toBe(before)
    // The untouched answer still signs in: none of the above spent its challenge.
    expect((await verify(good)).status).toBe(200)
  })

  test('a signed-in user holds at most a few registration challenges: asking again drops the oldest', async () => {
    const wallet = await sandbox.signUp('passkey-flood@example.com')
    const user = { email: 'passkey-flood@example.com', walletToken: wallet.walletToken }
    const authenticator = softwareAuthenticator({ origin: sandbox.url })
    const asked: Record<string, unknown>[] = []
    for (let i = 0; i < pendingPerUser + 3; i++) asked.push((await stepUp.options(user)).body.data)
    const { rows } = await sandbox.store.query('SELECT challenge FROM passkey_challenges WHERE user_id = (SELECT user_id FROM wallets WHERE address = $1)', [
      wallet.address,
    ])
    expect(rows).toHaveLength(pendingPerUser)
    const register = (options: Record<string, unknown>) =>
      sandbox.post('/api/v2/wallet/passkeys', { credential: authenticator.register(options) }, wallet.walletToken)
    expect((await register(asked[0]!)).body.message).toMatch(/expired or was already used/)
    expect((await register(asked.at(-1)!)).status).toBe(200)
  })

  test('sign-in options (a stored row for anyone who asks) are rate limited per client, and expired challenges are dropped', async () => {
    await sandbox.store.query("UPDATE passkey_challenges SET expires_at = clock_timestamp() - interval '1 second'")
    let answer = await sandbox.post('/api/v2/auth/passkey/options', {})
    expect(answer.status).toBe(200)
    const stored = async () => Number((await sandbox.store.query<{ n: string }>('SELECT count(*) AS n FROM passkey_challenges')).rows[0]!.n)
    expect(await stored()).toBe(1)
    let asked = 1
    while (answer.status === 200 && asked < 1000) {
      answer = await sandbox.post('/api/v2/auth/passkey/options', {})
      asked++
    }
    expect(answer.status).toBe(429)
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await stored()).toBeLessThan(asked)
    expect(await stored()).toBeLessThanOrEqual(200)
  })
})
