import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { passkeyRemovalHash } from '../../../sdk/passkeys.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { softwareAuthenticator } from './authenticator.fixture.ts'
import { passkeyStepUp, type PasskeyUser } from './passkey-step-up.fixture.ts'

// A stolen wallet token must not be enough to add the thief's passkey (and keep the account for good)
// or to remove the owner's: both take a step-up proof for that change, and removing one for that
// very passkey. A user with no e-mail (no second factor) may change them only just after signing in.

let sandbox: TestSandbox
let stepUp: ReturnType<typeof passkeyStepUp>
beforeAll(async () => {
  sandbox = await startTestSandbox()
  stepUp = passkeyStepUp(sandbox)
})
afterAll(() => sandbox?.dispose())

const optionsWith = (user: PasskeyUser, body: unknown) => sandbox.post('/api/v2/wallet/passkeys/options', body, user.walletToken)
const register = (user: PasskeyUser, credential: unknown) => sandbox.post('/api/v2/wallet/passkeys', { credential }, user.walletToken)
const challengesOf = async (walletToken: string) => {
  const userId = JSON.parse(Buffer.from(walletToken.split('.')[1]!, 'base64url').toString()).sub as string | undefined
  const { rows } = await sandbox.store.query('SELECT challenge FROM passkey_challenges WHERE user_id = $1', [userId])
  return rows.length
}
const passkeyIds = async (user: PasskeyUser) =>
  ((await sandbox.call('/api/v2/wallet/passkeys', { headers: { authorization: `Bearer ${user.walletToken}` } })).body.data.passkeys as { id: string }[]).map(
    (p) => p.id,
  )

async function newUser(email: string): Promise<PasskeyUser> {
  const wallet = await sandbox.signUp(email)
  return { email, walletToken: wallet.walletToken }
}

/** A user with `count` passkeys on one software authenticator. */
async function withPasskeys(email: string, count: number) {
  const user = await newUser(email)
  const authenticator = softwareAuthenticator({ origin: sandbox.url })
  for (let i = 0; i < count; i++) expect((await register(user, authenticator.register((await stepUp.options(user)).body.data))).status).toBe(200)
  return { user, authenticator, ids: authenticator.credentials.map((c) => c.id) }
}

/** A 403 that names the action's step-up and holds no options. */
function expectStepUp(answer: { status: number; body: { message: string; data: unknown } }, action: string, reason: RegExp) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403)
  expect(answer.body.message).toMatch(/^Step-up required: /)
  expect(answer.body.message).toMatch(reason)
  expect(answer.body.data).toEqual({ stepUp: expect.objectContaining({ action }) })
}

describe('adding a passkey takes a step-up proof for add-sign-in-method', () => {
  test('no proof, or a proof for another action, another request, another user or used already: 403 and no challenge stored', async () => {
    // Just signed up: for a user with an e-mail address, a fresh sign-in is no substitute.
    const user = await newUser('psu-add@example.com')
    const other = await newUser('psu-add-other@example.com')
    expectStepUp(await optionsWith(user, {}), 'add-sign-in-method', /confirm it with a second factor first/)
    expectStepUp(await optionsWith(user, { stepUpProof: '' }), 'add-sign-in-method', /confirm it with a second factor first/)
    expectStepUp(await optionsWith(user, { stepUpProof: await stepUp.proof(user, 'export-key') }), 'add-sign-in-method', /another action/)
    expectStepUp(await optionsWith(user, { stepUpProof: await stepUp.proof(user, 'remove-sign-in-method') }), 'add-sign-in-method', /another action/)
    const bound = await stepUp.proof(user, 'add-sign-in-method', `0x${'11'.repeat(32)}`)
    expectStepUp(await optionsWith(user, { stepUpProof: bound }), 'add-sign-in-method', /another request/)
    expectStepUp(await optionsWith(user, { stepUpProof: await stepUp.addProof(other) }), 'add-sign-in-method', /not valid/)
    expect(await challengesOf(user.walletToken)).toBe(0)

    const proof = await stepUp.addProof(user)
    const granted = await optionsWith(user, { stepUpProof: proof })
    expect(granted.status).toBe(200)
    expect(await challengesOf(user.walletToken)).toBe(1)
    expectStepUp(await optionsWith(user, { stepUpProof: proof }), 'add-sign-in-method', /already used/)
    expect(await challengesOf(user.walletToken)).toBe(1)
    expect((await optionsWith(user, { stepUpProof: proof, extra: 1 })).body.message).toBe('Unknown field in body: extra')
    expect((await register(user, softwareAuthenticator({ origin: sandbox.url }).register(granted.body.data))).status).toBe(200)
  })
})

describe('removing a passkey takes a step-up proof for remove-sign-in-method, bound to that passkey', () => {
  test('no proof, or a proof for another passkey, action, user, or none: 403 and both passkeys kept; its own proof removes it, once', async () => {
    const { user, authenticator, ids } = await withPasskeys('psu-remove@example.com', 2)
    const [a, b] = ids as [string, string]
    const other = await newUser('psu-remove-other@example.com')
    expectStepUp(await stepUp.remove(user.walletToken, a), 'remove-sign-in-method', /confirm it with a second factor first/)
    expectStepUp(await stepUp.remove(user.walletToken, a, await stepUp.removeProof(user, b)), 'remove-sign-in-method', /another request/)
    expectStepUp(await stepUp.remove(user.walletToken, a, await stepUp.proof(user, 'remove-sign-in-method')), 'remove-sign-in-method', /another request/)
    expectStepUp(await stepUp.remove(user.walletToken, a, await stepUp.proof(user, 'add-sign-in-method')), 'remove-sign-in-method', /another action/)
    const wrongAction = await stepUp.proof(user, 'export-key', passkeyRemovalHash(a))
    expectStepUp(await stepUp.remove(user.walletToken, a, wrongAction), 'remove-sign-in-method', /another action/)
    expectStepUp(await stepUp.remove(user.walletToken, a, await stepUp.removeProof(other, a)), 'remove-sign-in-method', /not valid/)
    expect(await passkeyIds(user)).toEqual([a, b])

    const proof = await stepUp.removeProof(user, a)
    expect((await stepUp.remove(user.walletToken, a, proof)).status).toBe(200)
    expect(await passkeyIds(user)).toEqual([b])
    // Spent: it removes nothing more, not even the passkey it was for, were it back.
    expectStepUp(await stepUp.remove(user.walletToken, a, proof), 'remove-sign-in-method', /already used/)
    // The one kept still signs in.
    const signIn = await sandbox.post('/api/v2/auth/passkey/options', {})
    const kept = authenticator.credentials.find((c) => c.id === b)
    expect((await sandbox.post('/api/v2/auth/passkey/verify', { credential: authenticator.assert(signIn.body.data, kept) })).status).toBe(200)
  })
})

describe('a user with no e-mail address (no second factor)', () => {
  /** A WhatsApp user with a wallet: a session just signed in. */
  async function phoneUser(phone: string): Promise<PasskeyUser & { familyAge(minutes: number): Promise<unknown> }> {
    const sent = await sandbox.post('/api/v2/auth/login-whatsapp', { phoneNumber: phone })
    const { code } = (await sandbox.call(`/dev/api/inbox?to=${phone}`)).body[0]
    const login = await sandbox.post('/api/v2/auth/verify-whatsapp', { verificationToken: sent.body.data.verificationToken, otp: code })
    const created = await sandbox.post('/api/v2/account/create', {}, login.body.data.accessToken)
    expect(created.status).toBe(200)
    const walletToken = created.body.data.walletToken as string
    const familyId = JSON.parse(Buffer.from(walletToken.split('.')[1]!, 'base64url').toString()).fam as string
    return {
      email: '',
      walletToken,
      // As if the session had signed in `minutes` ago.
      familyAge: async (minutes) => {
        const { rowCount } = await sandbox.store.query('UPDATE session_sign_ins SET created_at = now() - make_interval(mins => $2) WHERE family_id = $1', [
          familyId,
          minutes,
        ])
        expect(rowCount).toBe(1)
      },
    }
  }

  /** A step-up proof answered with the user's passkey (the factor a user with no e-mail has once they hold one). */
  async function passkeyProof(user: PasskeyUser, authenticator: ReturnType<typeof softwareAuthenticator>, action: string, request?: string) {
    const body = { action, factors: ['passkey', 'email'], ...(request ? { request } : {}) }
    const started = await sandbox.post('/api/v2/auth/step-up/start', body, user.walletToken)
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    expect(started.body.data.factor).toBe('passkey')
    const credential = authenticator.assert(started.body.data.options)
    const verified = await sandbox.post('/api/v2/auth/step-up/verify', { challengeId: started.body.data.challengeId, credential }, user.walletToken)
    expect(verified.status, JSON.stringify(verified.body)).toBe(200)
    return verified.body.data.stepUpProof as string
  }

  test('adds a first passkey without a proof just after signing in; from then on that passkey is the second factor, even inside the 5 minutes', async () => {
    const user = await phoneUser('6281234509001')
    const authenticator = softwareAuthenticator({ origin: sandbox.url })
    const first = await optionsWith(user, {})
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect((await register(user, authenticator.register(first.body.data))).status).toBe(200)
    // A stolen token inside the window: with a passkey on the account, no proof adds or removes nothing.
    const before = await challengesOf(user.walletToken)
    expectStepUp(await optionsWith(user, {}), 'add-sign-in-method', /./)
    expect(await challengesOf(user.walletToken)).toBe(before)
    const second = await optionsWith(user, { stepUpProof: await passkeyProof(user, authenticator, 'add-sign-in-method') })
    expect(second.status, JSON.stringify(second.body)).toBe(200)
    expect((await register(user, authenticator.register(second.body.data))).status).toBe(200)
    const [a, b] = authenticator.credentials.map((c) => c.id) as [string, string]
    expectStepUp(await stepUp.remove(user.walletToken, a), 'remove-sign-in-method', /./)
    expect(await passkeyIds(user)).toEqual(expect.arrayContaining([a, b]))
    const proof = await passkeyProof(user, authenticator, 'remove-sign-in-method', passkeyRemovalHash(a))
    expect((await stepUp.remove(user.walletToken, a, proof)).status).toBe(200)
    expect(await passkeyIds(user)).toEqual([b])
  })

  test('with no factor at all: a change passes without a proof within 5 minutes of signing in; later it is 403 saying what to do, nothing stored or removed', async () => {
    const user = await phoneUser('6281234509002')
    await user.familyAge(4)
    expect((await optionsWith(user, {})).status).toBe(200)
    const before = await challengesOf(user.walletToken)
    await user.familyAge(6)
    const late = await optionsWith(user, {})
    expectStepUp(late, 'add-sign-in-method', /no e-mail address .* within 5 minutes of signing in\. Sign in again/)
    expect(late.body.data.stepUp).toEqual({ action: 'add-sign-in-method', factors: [], freshSignInMinutes: 5 })
    expect(await challengesOf(user.walletToken)).toBe(before)
    expectStepUp(await stepUp.remove(user.walletToken, 'not-a-passkey'), 'remove-sign-in-method', /within 5 minutes of signing in/)
    // A made-up proof is checked like any other, and passes nothing.
    expectStepUp(await optionsWith(user, { stepUpProof: `sup_${'x'.repeat(43)}` }), 'add-sign-in-method', /not valid/)
  })
})
