import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { passkeyRemovalHash } from '../../../sdk/passkeys.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { softwareAuthenticator } from '../passkeys/authenticator.fixture.ts'
import { passkeyStepUp } from '../passkeys/passkey-step-up.fixture.ts'
import { stepUpCalls, wrongFor, type StepUpCalls } from './step-up.fixture.ts'

// Red team on the passkey step-up factor: a script holding a stolen wallet token (the owner's
// authenticator stays with the owner), and a host page that runs WebAuthn itself. Every call goes
// to the HTTP API directly.

let sandbox: TestSandbox
let calls: StepUpCalls
let passkeys: ReturnType<typeof passkeyStepUp>
beforeAll(async () => {
  sandbox = await startTestSandbox({ rateLimits: { codesPerIp: { max: 500, windowMs: 600_000 } } })
  calls = stepUpCalls(sandbox)
  passkeys = passkeyStepUp(sandbox)
})
afterAll(() => sandbox?.dispose())

const both = ['passkey', 'email']

/** A user of `app` with an e-mail address and `count` passkeys on one software authenticator. */
async function withPasskeys(email: string, count = 1, app = 'demo') {
  const wallet = await sandbox.signUp(email, app)
  const user = { email, walletToken: wallet.walletToken }
  const authenticator = softwareAuthenticator({ origin: sandbox.url })
  for (let i = 0; i < count; i++) {
    const options = await passkeys.options(user, app)
    const registered = await sandbox.post('/api/v2/wallet/passkeys', { credential: authenticator.register(options.body.data) }, user.walletToken, app)
    expect(registered.status, JSON.stringify(registered.body)).toBe(200)
  }
  return { user, authenticator }
}

async function startPasskey(walletToken: string, action = 'export-key', request?: string) {
  const started = await calls.start(walletToken, { action, factors: both, ...(request ? { request } : {}) })
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  expect(started.body.data.factor).toBe('passkey')
  return started.body.data as { challengeId: string; options: Record<string, unknown> }
}
const answer = (walletToken: string, challengeId: string, body: object) => calls.verify(walletToken, { challengeId, ...body })
const proofsOf = async (walletToken: string) => {
  const userId = JSON.parse(Buffer.from(walletToken.split('.')[1]!, 'base64url').toString()).sub as string
  const { rows } = await sandbox.store.query<{ n: string }>("SELECT count(*) AS n FROM step_up_proofs WHERE user_id = $1 AND action = 'export-key'", [userId])
  return Number(rows[0]!.n)
}
const passkeyCount = async (walletToken: string) => {
  const userId = JSON.parse(Buffer.from(walletToken.split('.')[1]!, 'base64url').toString()).sub as string
  const { rows } = await sandbox.store.query<{ n: string }>('SELECT count(*) AS n FROM passkey_credentials WHERE user_id = $1', [userId])
  return Number(rows[0]!.n)
}

describe('choosing the factor', () => {
  test('a thief naming e-mail only on a passkey user gets a code sent to the inbox, never shown to it; a wrong code earns nothing', async () => {
    const { user } = await withPasskeys('rt-pk-choose@example.com')
    await calls.age(user.email)
    const started = await calls.start(user.walletToken, { action: 'export-key', factors: ['email'] })
    expect(started.status).toBe(200)
    expect(started.body.data.factor).toBe('email')
    const { code } = await calls.inboxCode(user.email)
    // Nothing in the answer (nor its headers) carries the code.
    expect(JSON.stringify(started.body)).not.toContain(code)
    expect([...started.headers.values()].join(' ')).not.toContain(code)
    const wrong = await answer(user.walletToken, started.body.data.challengeId, { code: wrongFor(code) })
    expect(wrong.status).toBe(400)
    // An e-mail challenge answered with a passkey credential is no answer either.
    const asPasskey = await answer(user.walletToken, started.body.data.challengeId, { credential: { type: 'public-key' } })
    expect(asPasskey.status).toBe(400)
    expect(await proofsOf(user.walletToken)).toBe(0)
    // The client cannot reorder the factors to skip the passkey: the service's order holds.
    expect((await calls.start(user.walletToken, { action: 'export-key', factors: ['email', 'passkey'] })).body.data.factor).toBe('passkey')
  })

  test('a passkey challenge answered with an e-mail code (even the right one of another challenge) earns nothing', async () => {
    const { user } = await withPasskeys('rt-pk-code@example.com')
    await calls.age(user.email)
    await calls.start(user.walletToken, { action: 'export-key', factors: ['email'] })
    const { code } = await calls.inboxCode(user.email)
    const { challengeId } = await startPasskey(user.walletToken)
    const response = await answer(user.walletToken, challengeId, { code })
    expect(response.status).toBe(400)
    expect(await proofsOf(user.walletToken)).toBe(0)
  })

  test.each([
    ['null', null],
    ['an object', { 0: 'passkey', length: 1 }],
    ['a huge list', Array.from({ length: 500 }, () => 'email')],
    ['a nested list', [['passkey']]],
    ['__proto__', ['__proto__']],
    ['a NUL name', ['passkey\u0000']],
    ['a case variant', ['PASSKEY']],
  ])('factors as %s → 400, nothing sent or stored', async (_, factors) => {
    const { user } = await withPasskeys(`rt-pk-bad-${Math.random().toString(36).slice(2)}@example.com`)
    const before = await sandbox.store.query<{ n: string }>('SELECT count(*) AS n FROM step_up_challenges')
    const started = await calls.start(user.walletToken, { action: 'export-key', factors })
    expect(started.status, JSON.stringify(started.body)).toBe(400)
    expect(started.body.message).toMatch(/^factors/)
    const after = await sandbox.store.query<{ n: string }>('SELECT count(*) AS n FROM step_up_challenges')
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n)
  })
})

describe('mixing ceremonies', () => {
  test("a step-up challenge (which a thief gets with the token alone) cannot register the thief's own passkey", async () => {
    const { user } = await withPasskeys('rt-pk-register@example.com')
    const { options } = await startPasskey(user.walletToken)
    const thiefs = softwareAuthenticator({ origin: sandbox.url })
    const userId = JSON.parse(Buffer.from(user.walletToken.split('.')[1]!, 'base64url').toString()).sub as string
    const credential = thiefs.register({ challenge: options.challenge, user: { id: Buffer.from(userId).toString('base64url') } })
    const registered = await sandbox.post('/api/v2/wallet/passkeys', { credential }, user.walletToken)
    expect(registered.status, JSON.stringify(registered.body)).toBe(400)
    expect(await passkeyCount(user.walletToken)).toBe(1)
  })

  test("the same person's passkey in another app does not answer this app's step-up", async () => {
    const email = 'rt-pk-apps@example.com'
    const here = await withPasskeys(email, 1, 'demo')
    const there = await withPasskeys(email, 1, 'stepup')
    const { challengeId, options } = await startPasskey(here.user.walletToken)
    const response = await answer(here.user.walletToken, challengeId, { credential: there.authenticator.assert(options) })
    expect(response.status).toBe(400)
    expect(response.body.message).toMatch(/not one of this account's/)
    expect(await proofsOf(here.user.walletToken)).toBe(0)
  })

  test('a passkey removed between the start and the answer answers nothing', async () => {
    const { user, authenticator } = await withPasskeys('rt-pk-removed@example.com', 2)
    const [a, b] = authenticator.credentials as [(typeof authenticator.credentials)[0], (typeof authenticator.credentials)[0]]
    const pending = await startPasskey(user.walletToken)
    const removal = await startPasskey(user.walletToken, 'remove-sign-in-method', passkeyRemovalHash(a.id))
    const removalProof = await answer(user.walletToken, removal.challengeId, { credential: authenticator.assert(removal.options, b) })
    expect((await passkeys.remove(user.walletToken, a.id, removalProof.body.data.stepUpProof)).status).toBe(200)
    const response = await answer(user.walletToken, pending.challengeId, { credential: authenticator.assert(pending.options, a) })
    expect(response.status).toBe(400)
    expect(response.body.message).toMatch(/not one of this account's/)
  })
})

describe('where the ceremony ran', () => {
  test('an assertion made by the host page itself (its own origin, same RP ID host) is refused', async () => {
    const { user, authenticator } = await withPasskeys('rt-pk-host@example.com')
    const hostPage = 'http://localhost:5173'
    const { challengeId, options } = await startPasskey(user.walletToken)
    const response = await answer(user.walletToken, challengeId, { credential: authenticator.assert(options, undefined, { origin: hostPage }) })
    expect(response.status).toBe(400)
    expect(response.body.message).toMatch(/origin/i)
    expect(await proofsOf(user.walletToken)).toBe(0)
  })

  test("the frame under a page another app allows (not this one) is refused; under this app's page it is accepted", async () => {
    const { user, authenticator } = await withPasskeys('rt-pk-top@example.com')
    const other = await startPasskey(user.walletToken)
    const refused = await answer(user.walletToken, other.challengeId, {
      credential: authenticator.assert(other.options, undefined, { topOrigin: 'https://partner.example' }),
    })
    expect(refused.status).toBe(403)
    expect(refused.body.message).toMatch(/page this app does not allow/)
    const mine = await startPasskey(user.walletToken)
    const accepted = await answer(user.walletToken, mine.challengeId, {
      credential: authenticator.assert(mine.options, undefined, { topOrigin: 'http://localhost:5173' }),
    })
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
  })
})

describe('many starts', () => {
  test("a thief's run of step-up starts does not push out the owner's pending passkey registration", async () => {
    const { user, authenticator } = await withPasskeys('rt-pk-evict@example.com')
    const registration = await passkeys.options(user)
    expect(registration.status).toBe(200)
    for (let i = 0; i < 8; i++) await startPasskey(user.walletToken)
    // The step-up ones stay few: the oldest beyond them go.
    const userId = JSON.parse(Buffer.from(user.walletToken.split('.')[1]!, 'base64url').toString()).sub as string
    const { rows } = await sandbox.store.query("SELECT 1 FROM passkey_challenges WHERE user_id = $1 AND purpose = 'step-up'", [userId])
    expect(rows).toHaveLength(5)
    const registered = await sandbox.post('/api/v2/wallet/passkeys', { credential: authenticator.register(registration.body.data) }, user.walletToken)
    expect(registered.status, JSON.stringify(registered.body)).toBe(200)
    expect(await passkeyCount(user.walletToken)).toBe(2)
  })
})
