import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { passkeyRemovalHash } from '../../../sdk/passkeys.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { softwareAuthenticator, type Bend, type SoftCredential } from '../passkeys/authenticator.fixture.ts'
import { passkeyStepUp } from '../passkeys/passkey-step-up.fixture.ts'
import { stepUpCalls, type StepUpCalls } from './step-up.fixture.ts'

// A passkey assertion as the step-up factor: asked when the client says it can run the ceremony and
// the user has a passkey; the same proof as the e-mail code, and every shortcut around it refused.

let sandbox: TestSandbox
let calls: StepUpCalls
let passkeys: ReturnType<typeof passkeyStepUp>
beforeAll(async () => {
  sandbox = await startTestSandbox()
  calls = stepUpCalls(sandbox)
  passkeys = passkeyStepUp(sandbox)
})
afterAll(() => sandbox?.dispose())

const both = ['passkey', 'email']
type Authenticator = ReturnType<typeof softwareAuthenticator>

/** A user with an e-mail address and `count` passkeys on one software authenticator (added with e-mail proofs). */
async function withPasskeys(email: string, count = 1) {
  const wallet = await sandbox.signUp(email)
  const user = { email, walletToken: wallet.walletToken }
  const authenticator = softwareAuthenticator({ origin: sandbox.url })
  for (let i = 0; i < count; i++) {
    const options = await passkeys.options(user)
    const registered = await sandbox.post('/api/v2/wallet/passkeys', { credential: authenticator.register(options.body.data) }, user.walletToken)
    expect(registered.status, JSON.stringify(registered.body)).toBe(200)
  }
  return { user, wallet, authenticator }
}

/** Starts a passkey step-up for `action` (and `request`): the challenge id and the WebAuthn options. */
async function startPasskey(walletToken: string, action = 'export-key', request?: string) {
  const started = await calls.start(walletToken, { action, factors: both, ...(request ? { request } : {}) })
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  expect(started.body.data.factor).toBe('passkey')
  return started.body.data as { challengeId: string; options: Record<string, unknown> }
}

const answer = (walletToken: string, challengeId: string, credential: unknown) => calls.verify(walletToken, { challengeId, credential })

/** A passkey step-up answered by `authenticator` (its newest credential unless told): the verify response. */
async function passkeyStepUpWith(
  walletToken: string,
  authenticator: Authenticator,
  action = 'export-key',
  request?: string,
  credential?: SoftCredential,
  bend?: Bend,
) {
  const { challengeId, options } = await startPasskey(walletToken, action, request)
  return answer(walletToken, challengeId, authenticator.assert(options, credential ?? authenticator.credentials.at(-1), bend))
}

const counterOf = async (id: string) =>
  Number((await sandbox.store.query<{ counter: string }>('SELECT counter FROM passkey_credentials WHERE credential_id = $1', [id])).rows[0]!.counter)

/** The actions of the passkey proofs the wallet token's user earned. */
const passkeyProofs = async (walletToken: string) => {
  const userId = JSON.parse(Buffer.from(walletToken.split('.')[1]!, 'base64url').toString()).sub as string
  const { rows } = await sandbox.store.query<{ action: string }>("SELECT action FROM step_up_proofs WHERE factor = 'passkey' AND user_id = $1", [userId])
  return rows.map((r) => r.action)
}
const inboxSize = async (email: string) => ((await sandbox.call(`/dev/api/inbox?to=${encodeURIComponent(email)}`)).body as unknown[]).length

describe('a passkey as the step-up factor', () => {
  test('asked when the client can run it: options for the user’s passkeys with user verification, a proof that works once for its action', async () => {
    const { user, wallet, authenticator } = await withPasskeys('psf-ok@example.com', 2)
    const mails = await inboxSize(user.email)
    const started = await calls.start(user.walletToken, { action: 'export-key', factors: both })
    expect(started.status).toBe(200)
    expect(started.headers.get('cache-control')).toBe('no-store')
    const ids = authenticator.credentials.map((c) => c.id)
    expect(started.body.data).toMatchObject({ factor: 'passkey', action: 'export-key', otherFactors: ['email'] })
    expect(started.body.data.sentTo).toBeUndefined()
    const options = started.body.data.options
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required' })
    expect(options.allowCredentials.map((c: { id: string }) => c.id).sort()).toEqual([...ids].sort())
    const lifetime = new Date(started.body.data.expiresAt).getTime() - Date.now()
    expect(lifetime).toBeLessThanOrEqual(180_000)
    // A passkey challenge of its own purpose, for this user.
    const { rows } = await sandbox.store.query<{ purpose: string }>('SELECT purpose FROM passkey_challenges WHERE challenge = $1', [options.challenge])
    expect(rows).toEqual([{ purpose: 'step-up' }])
    // No code was sent.
    expect(await inboxSize(user.email)).toBe(mails)

    const before = await counterOf(ids[1]!)
    const verified = await answer(user.walletToken, started.body.data.challengeId, authenticator.assert(options))
    expect(verified.status, JSON.stringify(verified.body)).toBe(200)
    expect(verified.body.data).toEqual({ stepUpProof: expect.stringMatching(/^sup_[\w-]{43}$/), action: 'export-key', expiresAt: expect.any(String) })
    expect(await counterOf(ids[1]!)).toBe(before + 1)
    const proof = verified.body.data.stepUpProof
    const exported = await calls.exportKey(user.walletToken, { stepUpProof: proof })
    expect(exported.status).toBe(200)
    expect(exported.body.data.privateKey).toMatch(/^0x[0-9a-f]{64}$/)
    expect((await calls.exportKey(user.walletToken, { stepUpProof: proof })).body.message).toMatch(/already used/)
    expect(wallet.address).toMatch(/^0x/)

    // Bound to its request: a proof to remove passkey b removes b, not a.
    const [a, b] = ids as [string, string]
    const removeB = await passkeyStepUpWith(user.walletToken, authenticator, 'remove-sign-in-method', passkeyRemovalHash(b))
    expect(removeB.status).toBe(200)
    expect((await passkeys.remove(user.walletToken, a, removeB.body.data.stepUpProof)).body.message).toMatch(/another request/)
    const removeB2 = await passkeyStepUpWith(user.walletToken, authenticator, 'remove-sign-in-method', passkeyRemovalHash(b))
    expect((await passkeys.remove(user.walletToken, b, removeB2.body.data.stepUpProof)).status).toBe(200)
  })

  test('a client that does not list passkey (or lists e-mail only) still gets the e-mail code; bad factor lists are refused', async () => {
    const { user } = await withPasskeys('psf-email@example.com')
    for (const body of [{ action: 'export-key' }, { action: 'export-key', factors: ['email'] }]) {
      await calls.age(user.email)
      const started = await calls.start(user.walletToken, body)
      expect(started.status, JSON.stringify(started.body)).toBe(200)
      expect(started.body.data).toMatchObject({ factor: 'email', sentTo: 'p•••@example.com' })
      expect(started.body.data.options).toBeUndefined()
      expect(started.body.data.otherFactors).toBeUndefined()
    }
    for (const factors of [[], ['sms'], 'passkey', ['passkey', 'email', 'email'], [1]])
      expect((await calls.start(user.walletToken, { action: 'export-key', factors })).body.message).toBe('factors must be a list of passkey, email')
  })

  test("refuses another user's passkey, a removed passkey, no user verification, a counter that does not go up, a wrong origin; nothing is earned", async () => {
    const { user, authenticator } = await withPasskeys('psf-refused@example.com', 2)
    const other = await withPasskeys('psf-other@example.com')
    // 400 as a wrong code, never 401: that would read as a bad wallet token, and a client would refresh and resend.
    const refused = async (authenticator_: Authenticator, credential: SoftCredential | undefined, bend: Bend, status: number, message: RegExp) => {
      const response = await passkeyStepUpWith(user.walletToken, authenticator_, 'export-key', undefined, credential, bend)
      expect(response.status, JSON.stringify(response.body)).toBe(status)
      expect(response.body.message).toMatch(message)
    }
    await refused(other.authenticator, undefined, {}, 400, /not one of this account's/)
    const [a, b] = authenticator.credentials as [SoftCredential, SoftCredential]
    // Removed (with a proof from the other one): no longer offered, and its answer refused.
    const removal = await passkeyStepUpWith(user.walletToken, authenticator, 'remove-sign-in-method', passkeyRemovalHash(a.id), b)
    expect((await passkeys.remove(user.walletToken, a.id, removal.body.data.stepUpProof)).status).toBe(200)
    const { options } = await startPasskey(user.walletToken)
    expect((options.allowCredentials as { id: string }[]).map((c) => c.id)).toEqual([b.id])
    await refused(authenticator, a, {}, 400, /not one of this account's/)
    await refused(authenticator, b, { userVerified: false }, 400, /user could not be verified/i)
    // b has signed once: the same count again is what a cloned authenticator would show.
    expect(await counterOf(b.id)).toBe(1)
    await refused(authenticator, b, { counter: 1 }, 400, /counter/i)
    await refused(authenticator, b, { origin: 'https://evil.example' }, 400, /origin/i)
    await refused(authenticator, b, { topOrigin: 'https://evil.example' }, 403, /page this app does not allow/)
    expect(await passkeyProofs(user.walletToken)).toEqual(['remove-sign-in-method'])
  })

  test('a sign-in challenge does not answer a step-up nor a step-up challenge a sign-in; a challenge of another action or request, or a replay, answers nothing', async () => {
    const { user, authenticator } = await withPasskeys('psf-mixup@example.com')
    const signInOptions = (await sandbox.post('/api/v2/auth/passkey/options', {})).body.data
    const exportStart = await startPasskey(user.walletToken, 'export-key')
    expect((await answer(user.walletToken, exportStart.challengeId, authenticator.assert(signInOptions))).status).toBe(400)

    const forSignIn = await startPasskey(user.walletToken, 'export-key')
    const signIn = await sandbox.post('/api/v2/auth/passkey/verify', { credential: authenticator.assert(forSignIn.options) })
    expect(signIn.status).toBe(400)
    expect(signIn.body.walletToken).toBeUndefined()

    const sendStart = await startPasskey(user.walletToken, 'send-transaction', `0x${'ab'.repeat(32)}`)
    expect((await answer(user.walletToken, sendStart.challengeId, authenticator.assert(exportStart.options))).status).toBe(400)
    expect((await answer(user.walletToken, exportStart.challengeId, authenticator.assert(sendStart.options))).status).toBe(400)

    const fresh = await startPasskey(user.walletToken, 'export-key')
    const assertion = authenticator.assert(fresh.options)
    expect((await answer(user.walletToken, fresh.challengeId, assertion)).status).toBe(200)
    expect((await answer(user.walletToken, fresh.challengeId, assertion)).status).toBe(400)
    const next = await startPasskey(user.walletToken, 'export-key')
    expect((await answer(user.walletToken, next.challengeId, assertion)).status).toBe(400)
    expect(await passkeyProofs(user.walletToken)).toEqual(['export-key'])
  })
})

describe('a user with no e-mail address but a passkey', () => {
  test('steps up with the passkey (an e-mail-only client is told the account confirms with a passkey)', async () => {
    const sent = await sandbox.post('/api/v2/auth/login-whatsapp', { phoneNumber: '6281234509101' })
    const { code } = (await sandbox.call('/dev/api/inbox?to=6281234509101')).body[0]
    const login = await sandbox.post('/api/v2/auth/verify-whatsapp', { verificationToken: sent.body.data.verificationToken, otp: code })
    const walletToken = (await sandbox.post('/api/v2/account/create', {}, login.body.data.accessToken)).body.data.walletToken as string
    expect((await calls.start(walletToken)).body.data).toEqual({ factors: [] })
    // Just after signing in, a passkey may be added without a proof.
    const authenticator = softwareAuthenticator({ origin: sandbox.url })
    const options = await sandbox.post('/api/v2/wallet/passkeys/options', {}, walletToken)
    expect((await sandbox.post('/api/v2/wallet/passkeys', { credential: authenticator.register(options.body.data) }, walletToken)).status).toBe(200)

    const emailOnly = await calls.start(walletToken)
    expect(emailOnly.status).toBe(409)
    expect(emailOnly.body.data).toEqual({ factors: ['passkey'] })
    const started = await calls.start(walletToken, { action: 'export-key', factors: both })
    expect(started.body.data).toMatchObject({ factor: 'passkey' })
    expect(started.body.data.otherFactors).toBeUndefined()
    const verified = await answer(walletToken, started.body.data.challengeId, authenticator.assert(started.body.data.options))
    expect(verified.status).toBe(200)
    expect((await calls.exportKey(walletToken, { stepUpProof: verified.body.data.stepUpProof })).status).toBe(200)
  })
})
