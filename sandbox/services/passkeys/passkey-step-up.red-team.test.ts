import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { passkeyRemovalHash } from '../../../sdk/passkeys.ts'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { softwareAuthenticator } from './authenticator.fixture.ts'
import { passkeyStepUp, type PasskeyUser } from './passkey-step-up.fixture.ts'

// Red team on the step-up before adding or removing a passkey, as a thief holding a stolen wallet
// token and refresh token: proofs of the wrong shape, place, session or spelling, one proof raced,
// a DELETE body that is not the JSON the gate reads, and the no-e-mail user's 5-minute window moved
// by a refresh or by the owner's own new sign-in.

let sandbox: TestSandbox
let stepUp: ReturnType<typeof passkeyStepUp>
beforeAll(async () => {
  sandbox = await startTestSandbox()
  stepUp = passkeyStepUp(sandbox)
})
afterAll(() => sandbox?.dispose())

type Answer = { status: number; body: { message: string; data: unknown } }
const optionsWith = (walletToken: string, body: unknown, headers: Record<string, string> = {}) =>
  sandbox.call('/api/v2/wallet/passkeys/options', {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { authorization: `Bearer ${walletToken}`, ...headers },
  })
const register = (walletToken: string, credential: unknown) => sandbox.post('/api/v2/wallet/passkeys', { credential }, walletToken)
const deleteRaw = (walletToken: string, path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
  sandbox.call(`/api/v2/wallet/passkeys/${path}`, { method: 'DELETE', ...init, headers: { authorization: `Bearer ${walletToken}`, ...init.headers } })
const familyOf = (walletToken: string) => JSON.parse(Buffer.from(walletToken.split('.')[1]!, 'base64url').toString()).fam as string
const userOf = (walletToken: string) => JSON.parse(Buffer.from(walletToken.split('.')[1]!, 'base64url').toString()).sub as string
const storedIds = async (walletToken: string) =>
  (
    await sandbox.store.query<{ credential_id: string }>('SELECT credential_id FROM passkey_credentials WHERE user_id = $1 ORDER BY credential_id', [
      userOf(walletToken),
    ])
  ).rows.map((r) => r.credential_id)
const challenges = async (walletToken: string) =>
  Number((await sandbox.store.query<{ n: string }>('SELECT count(*) AS n FROM passkey_challenges WHERE user_id = $1', [userOf(walletToken)])).rows[0]!.n)

function refused(answer: Answer, reason: RegExp = /^Step-up required: /) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403)
  expect(answer.body.message).toMatch(reason)
}

/** A signed-up e-mail user with `count` passkeys (each added with its own proof). */
async function emailUser(email: string, count: number) {
  const wallet = await sandbox.signUp(email)
  const user: PasskeyUser = { email, walletToken: wallet.walletToken }
  const authenticator = softwareAuthenticator({ origin: sandbox.url })
  for (let i = 0; i < count; i++) expect((await register(user.walletToken, authenticator.register((await stepUp.options(user)).body.data))).status).toBe(200)
  return { user, wallet, authenticator, ids: authenticator.credentials.map((c) => c.id) }
}

/** A WhatsApp user (no e-mail, so no second factor) with a wallet: a session that just signed in. */
async function phoneSession(phone: string) {
  const sent = await sandbox.post('/api/v2/auth/login-whatsapp', { phoneNumber: phone })
  expect(sent.status, JSON.stringify(sent.body)).toBe(200)
  const inbox = (await sandbox.call(`/dev/api/inbox?to=${phone}`)).body as { code: string }[]
  const login = await sandbox.post('/api/v2/auth/verify-whatsapp', { verificationToken: sent.body.data.verificationToken, otp: inbox[0]!.code })
  expect(login.status, JSON.stringify(login.body)).toBe(200)
  const data = login.body.data.walletToken ? login.body.data : (await sandbox.post('/api/v2/account/create', {}, login.body.data.accessToken)).body.data
  return { walletToken: data.walletToken as string, refreshToken: data.refreshToken as string }
}
const ageSession = async (walletToken: string, minutes: number) => {
  const { rowCount } = await sandbox.store.query('UPDATE session_sign_ins SET created_at = now() - make_interval(mins => $2) WHERE family_id = $1', [
    familyOf(walletToken),
    minutes,
  ])
  expect(rowCount).toBe(1)
}

describe('red team: the proof itself', () => {
  test('a proof of the wrong type, padded, in a header or the query string, or for export-key / send-transaction: refused, and the real proof still works', async () => {
    const { user, authenticator, ids } = await emailUser('psr-shape@example.com', 1)
    const proof = await stepUp.addProof(user)
    const shapes: unknown[] = [[proof], { proof }, { toString: proof }, 1, 0, true, false, ' ', '\t', `${proof} `, ` ${proof}`, proof.toUpperCase()]
    for (const shape of shapes) refused(await optionsWith(user.walletToken, { stepUpProof: shape }))
    // A control character is refused before any look-up.
    expect((await optionsWith(user.walletToken, { stepUpProof: `${proof}\u0000` })).status).toBe(400)
    refused(await optionsWith(user.walletToken, {}, { 'x-step-up-proof': proof, 'step-up-proof': proof }), /confirm it with a second factor first/)
    refused(
      await sandbox.call(`/api/v2/wallet/passkeys/options?stepUpProof=${proof}`, {
        method: 'POST',
        body: '{}',
        headers: { authorization: `Bearer ${user.walletToken}` },
      }),
      /confirm it with a second factor first/,
    )
    refused(await optionsWith(user.walletToken, { stepUpProof: await stepUp.proof(user, 'export-key') }), /another action/)
    refused(await optionsWith(user.walletToken, { stepUpProof: await stepUp.proof(user, 'send-transaction', `0x${'ab'.repeat(32)}`) }), /another action/)
    refused(await optionsWith(user.walletToken, { stepUpProof: await stepUp.proof(user, 'grant-permissions') }), /another action/)
    // Duplicate keys: the last one is read, so an empty one after the real one is no proof.
    const doubled = await sandbox.call('/api/v2/wallet/passkeys/options', {
      method: 'POST',
      body: `{"stepUpProof":"${proof}","stepUpProof":""}`,
      headers: { authorization: `Bearer ${user.walletToken}` },
    })
    refused(doubled, /confirm it with a second factor first/)
    expect(await challenges(user.walletToken)).toBe(0)
    // None of those spent it.
    const granted = await optionsWith(user.walletToken, { stepUpProof: proof })
    expect(granted.status, JSON.stringify(granted.body)).toBe(200)
    expect((await register(user.walletToken, authenticator.register(granted.body.data))).status).toBe(200)
    expect(await storedIds(user.walletToken)).toHaveLength(ids.length + 1)
  })

  test('a proof earned for adding removes nothing, one earned in another session of the same user is refused in this one', async () => {
    const { user, ids } = await emailUser('psr-session@example.com', 1)
    const [a] = ids as [string]
    refused(await stepUp.remove(user.walletToken, a, await stepUp.addProof(user)), /another action/)
    refused(await stepUp.remove(user.walletToken, a, await stepUp.proof(user, 'remove-sign-in-method', passkeyRemovalHash(`${a} `))), /another request/)
    // The owner signs in again on another device: that session's proofs are its own.
    const { verificationToken, code } = await sandbox.requestCode(user.email)
    const second = await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
    expect(second.status).toBe(200)
    const owner: PasskeyUser = { email: user.email, walletToken: second.body.data.walletToken }
    expect(familyOf(owner.walletToken)).not.toBe(familyOf(user.walletToken))
    refused(await stepUp.remove(user.walletToken, a, await stepUp.removeProof(owner, a)), /another session/)
    refused(await optionsWith(user.walletToken, { stepUpProof: await stepUp.addProof(owner) }), /another session/)
    expect(await storedIds(user.walletToken)).toEqual([a])
    expect(await challenges(user.walletToken)).toBe(0)
  })

  test('one proof sent twice at once: one options answer and one challenge; one removal', async () => {
    const { user, ids } = await emailUser('psr-race@example.com', 2)
    const proof = await stepUp.addProof(user)
    const answers = await Promise.all([1, 2, 3].map(() => optionsWith(user.walletToken, { stepUpProof: proof })))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403, 403])
    expect(await challenges(user.walletToken)).toBe(1)
    const [a, b] = ids as [string, string]
    const removal = await stepUp.removeProof(user, a)
    const removed = await Promise.all([1, 2, 3].map(() => stepUp.remove(user.walletToken, a, removal)))
    expect(removed.map((r) => r.status).sort()).toEqual([200, 403, 403])
    expect(await storedIds(user.walletToken)).toEqual([b])
  })
})

describe('red team: a registration challenge of another app', () => {
  test('options earned in one app, answered in another app by the same person: 400, nothing stored in either', async () => {
    const email = 'psr-apps@example.com'
    const demo = await emailUser(email, 0)
    const smart = await sandbox.signUp(email, 'smart')
    const options = await stepUp.options(demo.user)
    expect(options.status).toBe(200)
    const credential = demo.authenticator.register(options.body.data)
    const elsewhere = await sandbox.post('/api/v2/wallet/passkeys', { credential }, smart.walletToken, 'smart')
    expect(elsewhere.status, JSON.stringify(elsewhere.body)).toBe(400)
    expect(elsewhere.body.message).toMatch(/expired or was already used/)
    expect(await storedIds(smart.walletToken)).toEqual([])
    expect(await storedIds(demo.user.walletToken)).toEqual([])
  })
})

describe('red team: the DELETE request', () => {
  test('a body that is not the JSON the gate reads (text, form, huge, extra fields, an array) removes nothing and keeps the proof', async () => {
    const { user, ids } = await emailUser('psr-body@example.com', 1)
    const [a] = ids as [string]
    const proof = await stepUp.removeProof(user, a)
    const bodies: { body: string; headers: Record<string, string> }[] = [
      { body: proof, headers: { 'content-type': 'text/plain' } },
      { body: `stepUpProof=${proof}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      { body: JSON.stringify({ stepUpProof: proof }), headers: { 'content-type': 'text/plain;application/json' } },
      { body: JSON.stringify({ stepUpProof: proof, id: 'other' }), headers: { 'content-type': 'application/json' } },
      { body: JSON.stringify({ stepUpProof: proof, __proto__x: 1 }), headers: { 'content-type': 'application/json' } },
      { body: JSON.stringify([proof]), headers: { 'content-type': 'application/json' } },
      { body: `{"stepUpProof":"${proof}"`, headers: { 'content-type': 'application/json' } },
      { body: JSON.stringify({ stepUpProof: proof, pad: 'x'.repeat(2_000_000) }), headers: { 'content-type': 'application/json' } },
    ]
    for (const init of bodies) {
      const answer = await deleteRaw(user.walletToken, a, init)
      expect(answer.status, `${init.headers['content-type']}: ${JSON.stringify(answer.body).slice(0, 200)}`).toBeGreaterThanOrEqual(400)
      expect(answer.status).toBeLessThan(500)
    }
    expect(await storedIds(user.walletToken)).toEqual([a])
    expect((await stepUp.remove(user.walletToken, a, proof)).status).toBe(200)
    expect(await storedIds(user.walletToken)).toEqual([])
  })

  test('another spelling of the id (case, encoding, a slash, a trailing slash): the proof binds exactly what is deleted', async () => {
    const { user, ids } = await emailUser('psr-spelling@example.com', 2)
    const [a, b] = ids as [string, string]
    const proofA = await stepUp.removeProof(user, a)
    const flipped = a.replace(/[a-z]/, (c) => c.toUpperCase()) === a ? a.replace(/[A-Z]/, (c) => c.toLowerCase()) : a.replace(/[a-z]/, (c) => c.toUpperCase())
    // A proof for A spent on other spellings: the hash is of the spelling in the path.
    for (const path of [flipped, `${a}%2F${b}`, `${a}/`, `${a}%00`, `${a}%20`, `%25${a.charCodeAt(0).toString(16)}${a.slice(1)}`]) {
      const answer = await deleteRaw(user.walletToken, path, { body: JSON.stringify({ stepUpProof: proofA }), headers: { 'content-type': 'application/json' } })
      expect([400, 403, 404], `${path}: ${answer.status}`).toContain(answer.status)
    }
    expect(await storedIds(user.walletToken)).toEqual([a, b].sort())
    // A proof earned for another spelling passes the gate for that spelling only, which names no passkey.
    // Nor does another method or place name it: a POST with a method override, the id in the query.
    const overridden = await sandbox.call(`/api/v2/wallet/passkeys/${a}`, {
      method: 'POST',
      body: JSON.stringify({ stepUpProof: proofA }),
      headers: { authorization: `Bearer ${user.walletToken}`, 'x-http-method-override': 'DELETE' },
    })
    expect(overridden.status).toBe(404)
    expect((await deleteRaw(user.walletToken, `?id=${a}`, { body: JSON.stringify({ stepUpProof: proofA }) })).status).toBe(404)
    expect(await storedIds(user.walletToken)).toEqual([a, b].sort())
    const flippedProof = await stepUp.removeProof(user, flipped)
    expect((await stepUp.remove(user.walletToken, flipped, flippedProof)).status).toBe(404)
    // The same id percent-encoded letter by letter is the same passkey: its proof removes it, and only it.
    const encoded = [...a].map((ch) => `%${ch.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')
    expect(
      (await deleteRaw(user.walletToken, encoded, { body: JSON.stringify({ stepUpProof: proofA }), headers: { 'content-type': 'application/json' } })).status,
    ).toBe(200)
    expect(await storedIds(user.walletToken)).toEqual([b])
  })
})

describe('red team: the 5-minute window of a user with no e-mail', () => {
  test('refreshing a stale session (or its refresh token used by a thief) does not move its sign-in time', async () => {
    const session = await phoneSession('6281234509101')
    await ageSession(session.walletToken, 6)
    const refreshed = await sandbox.post('/api/v2/wallet/refresh', { refreshToken: session.refreshToken })
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200)
    const thief = refreshed.body.data.walletToken as string
    expect(familyOf(thief)).toBe(familyOf(session.walletToken))
    refused(await optionsWith(thief, {}), /within 5 minutes of signing in/)
    for (const empty of [null, '', [], {}, ' ']) refused(await optionsWith(thief, { stepUpProof: empty }))
    expect(await challenges(thief)).toBe(0)
  })

  test("the owner's own new sign-in opens the window for that session only; once a passkey is added, the stolen session is refused", async () => {
    const phone = '6281234509102'
    const stolen = await phoneSession(phone)
    await ageSession(stolen.walletToken, 10)
    await sandbox.store.query("UPDATE otp_codes SET created_at = created_at - interval '6 minutes' WHERE destination LIKE $1", [`%${phone}%`])
    const owner = await phoneSession(phone)
    expect(familyOf(owner.walletToken)).not.toBe(familyOf(stolen.walletToken))
    const authenticator = softwareAuthenticator({ origin: sandbox.url })
    const mine = await optionsWith(owner.walletToken, {})
    expect(mine.status, JSON.stringify(mine.body)).toBe(200)
    expect((await register(owner.walletToken, authenticator.register(mine.body.data))).status).toBe(200)
    const [id] = authenticator.credentials.map((c) => c.id) as [string]
    // The account now has a passkey, a factor the thief cannot answer: refused in any session.
    refused(await optionsWith(stolen.walletToken, {}))
    refused(await stepUp.remove(stolen.walletToken, id))
    // The owner's challenge is the user's: the thief cannot see it, and a made-up one registers nothing.
    expect((await register(stolen.walletToken, softwareAuthenticator({ origin: sandbox.url }).register({ ...mine.body.data, challenge: 'AAAA' }))).status).toBe(
      400,
    )
    expect(await storedIds(owner.walletToken)).toEqual([id])
  })

  test("the owner's passkey sign-in is a new session; with a passkey on the account both need the passkey's proof", async () => {
    const stolen = await phoneSession('6281234509104')
    const authenticator = softwareAuthenticator({ origin: sandbox.url })
    expect((await register(stolen.walletToken, authenticator.register((await optionsWith(stolen.walletToken, {})).body.data))).status).toBe(200)
    await ageSession(stolen.walletToken, 6)
    const signIn = await sandbox.post('/api/v2/auth/passkey/verify', {
      credential: authenticator.assert((await sandbox.post('/api/v2/auth/passkey/options', {})).body.data),
    })
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200)
    const owner = signIn.body.data.walletToken as string
    expect(familyOf(owner)).not.toBe(familyOf(stolen.walletToken))
    refused(await optionsWith(stolen.walletToken, {}))
    // With a passkey on the account the fresh sign-in is not enough either: the passkey is the factor.
    refused(await optionsWith(owner, {}))
    const started = await sandbox.post('/api/v2/auth/step-up/start', { action: 'add-sign-in-method', factors: ['passkey'] }, owner)
    expect(started.body.data.factor).toBe('passkey')
    const credential = authenticator.assert(started.body.data.options)
    const verified = await sandbox.post('/api/v2/auth/step-up/verify', { challengeId: started.body.data.challengeId, credential }, owner)
    expect(verified.status, JSON.stringify(verified.body)).toBe(200)
    expect((await optionsWith(owner, { stepUpProof: verified.body.data.stepUpProof })).status).toBe(200)
  })

  test('a session with no recorded sign-in (older than the record) has no window', async () => {
    const session = await phoneSession('6281234509103')
    await sandbox.store.query('DELETE FROM session_sign_ins WHERE family_id = $1', [familyOf(session.walletToken)])
    refused(await optionsWith(session.walletToken, {}), /within 5 minutes of signing in/)
    expect(await challenges(session.walletToken)).toBe(0)
  })
})
