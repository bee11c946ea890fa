import { describe, expect, test } from 'vitest'
import { loadKeys } from '../../infra/keys.ts'
import { signToken } from '../../services/auth/jwt.ts'
import { stepUpProofFor } from '../../services/wallet/step-up-proof.fixture.ts'
import { stepUpCalls } from '../../services/step-up/step-up.fixture.ts'
import { claimsOf, type LockedUser, permissionPageForFile } from './permission.fixture.ts'
import { permissionGrantHash } from './routes.ts'

// Red team on the permission grant, as a thief holding a stolen wallet token (and so the links its
// refused signatures carry), posting the page's form directly: without an answer, with proofs made
// for something else, in another session, for another link, used, or with a link that is expired,
// names no session, or names one that has ended. The permission stays off every time; the owner's
// right proof, posted the same way, grants (so each refusal is the gate's).

const t = permissionPageForFile()

/** The hash a proof for this link must be bound to. */
const grantHashOf = (token: string) => permissionGrantHash(claimsOf(token).jti as string) as `0x${string}`
const proofFor = (user: LockedUser, action: string, request?: `0x${string}`) => stepUpProofFor(t.sandbox, 'demo', user, request, action)

/** Refused, the permission still off, and (while the session lives) a signature still refused with 407. */
async function refusedAndNotGranted(user: LockedUser, answer: { status: number; html: string }, reason?: RegExp, sessionLives = true) {
  expect(answer.status, answer.html).toBeGreaterThanOrEqual(400)
  expect(answer.html).not.toContain('Permission granted')
  if (reason) expect(answer.html).toMatch(reason)
  expect(await t.perm.granted(user.address)).toBe(false)
  if (sessionLives) expect((await t.perm.sign(user.walletToken)).body.status).toBe(407)
}

describe('red team: no answer', () => {
  test('a post with the token alone asks the code and grants nothing; a code or proof without a challenge grants nothing', async () => {
    const user = await t.perm.lockedUser('prt-none@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const asked = await t.perm.post({ token })
    expect(asked.html).toContain('We sent a code to')
    expect(asked.html).not.toContain('Permission granted')
    expect(await t.perm.granted(user.address)).toBe(false)
    const code = await t.perm.code(user.email)
    await refusedAndNotGranted(user, await t.perm.post({ token, code }), /belongs to no request/)
    for (const stepUpProof of ['sup_made-up', code, ' ', 'x'.repeat(500)]) await refusedAndNotGranted(user, await t.perm.post({ token, stepUpProof }))
    // Another site's page may not post the form at all.
    await refusedAndNotGranted(user, await t.perm.post({ token, challengeId: t.perm.challengeIdIn(asked.html), code }, { origin: 'https://evil.example' }))
  })

  test("the owner's proof for this link grants (the refusals below are the gate's)", async () => {
    const user = await t.perm.lockedUser('prt-control@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const stepUpProof = await proofFor(user, 'grant-permissions', grantHashOf(token))
    expect((await t.perm.post({ token, stepUpProof })).html).toContain('Permission granted')
    expect(await t.perm.granted(user.address)).toBe(true)
  })
})

describe('red team: proofs made for something else', () => {
  test('a proof for another action, or for grant-permissions bound to no request: refused', async () => {
    const user = await t.perm.lockedUser('prt-action@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const hash = grantHashOf(token)
    for (const action of ['export-key', 'add-sign-in-method', 'send-transaction'])
      await refusedAndNotGranted(user, await t.perm.post({ token, stepUpProof: await proofFor(user, action, action === 'export-key' ? undefined : hash) }))
    await refusedAndNotGranted(user, await t.perm.post({ token, stepUpProof: await proofFor(user, 'export-key') }), /for another action/)
    await refusedAndNotGranted(user, await t.perm.post({ token, stepUpProof: await proofFor(user, 'grant-permissions') }), /for another request/)
    // A challenge started for another action, answered on the page: its proof is for that action.
    const started = await t.sandbox.post('/api/v2/auth/step-up/start', { action: 'export-key' }, user.walletToken)
    await refusedAndNotGranted(
      user,
      await t.perm.post({ token, challengeId: started.body.data.challengeId, code: await t.perm.code(user.email) }),
      /for another action/,
    )
  })

  test("a proof from another session of the same user (for this very link's hash), or that session's challenge: refused", async () => {
    const user = await t.perm.lockedUser('prt-session@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const other = { ...user, walletToken: await stepUpCalls(t.sandbox).secondSession(user.email) }
    expect(claimsOf(other.walletToken).fam).not.toBe(claimsOf(user.walletToken).fam)
    const stepUpProof = await proofFor(other, 'grant-permissions', grantHashOf(token))
    await refusedAndNotGranted(user, await t.perm.post({ token, stepUpProof }), /another session/)
    await t.sandbox.store.query("UPDATE otp_codes SET created_at = created_at - interval '6 minutes' WHERE destination = $1", [`${user.email} (step-up)`])
    const started = await t.sandbox.post('/api/v2/auth/step-up/start', { action: 'grant-permissions', request: grantHashOf(token) }, other.walletToken)
    expect(started.status).toBe(200)
    await refusedAndNotGranted(
      user,
      await t.perm.post({ token, challengeId: started.body.data.challengeId, code: await t.perm.code(user.email) }),
      /start again/i,
    )
  })

  test("a proof for another link of the same wallet, or another user's wallet: refused", async () => {
    const user = await t.perm.lockedUser('prt-grant@example.com')
    const first = await t.perm.tokenOf(user.walletToken)
    const second = await t.perm.tokenOf(user.walletToken)
    await refusedAndNotGranted(
      user,
      await t.perm.post({ token: second, stepUpProof: await proofFor(user, 'grant-permissions', grantHashOf(first)) }),
      /another request/,
    )
    // A link's page run to its proof by the page itself is bound to that link too.
    const asked = await t.perm.post({ token: first })
    const code = await t.perm.code(user.email)
    await refusedAndNotGranted(user, await t.perm.post({ token: second, challengeId: t.perm.challengeIdIn(asked.html), code }), /another request/)

    const victim = await t.perm.lockedUser('prt-grant-victim@example.com')
    const victimToken = await t.perm.tokenOf(victim.walletToken)
    const thiefProof = await proofFor(user, 'grant-permissions', grantHashOf(victimToken))
    await refusedAndNotGranted(victim, await t.perm.post({ token: victimToken, stepUpProof: thiefProof }))
  })

  test('a used proof: refused once the permission is taken again', async () => {
    const user = await t.perm.lockedUser('prt-used@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const stepUpProof = await proofFor(user, 'grant-permissions', grantHashOf(token))
    expect((await t.perm.post({ token, stepUpProof })).html).toContain('Permission granted')
    await t.perm.lock(user.address)
    await refusedAndNotGranted(user, await t.perm.post({ token, stepUpProof }), /already used/)
  })
})

describe('red team: the link itself', () => {
  const mint = (user: LockedUser, claims: { familyId?: string; tokenId?: string }, expiresAt?: Date) =>
    signToken(
      loadKeys(t.sandbox.dataDir).jwtKey,
      { kind: 'permission', userId: claimsOf(user.walletToken).sub as string, appId: 'demo', environment: 'development', ...claims },
      expiresAt,
    )

  test('an expired link, or one naming no session or no grant: invalid, even with a proof for its hash', async () => {
    const user = await t.perm.lockedUser('prt-link@example.com')
    const fam = claimsOf(user.walletToken).fam as string
    const links = [
      await mint(user, { familyId: fam, tokenId: 'grant-expired' }, new Date(Date.now() - 1000)),
      await mint(user, { tokenId: 'grant-no-session' }),
      await mint(user, { familyId: fam }),
    ]
    for (const token of links) {
      const opened = await t.perm.open(token)
      expect(opened.status).toBe(400)
      expect(opened.html).toContain('This link is invalid or has expired')
      const hash = permissionGrantHash((claimsOf(token).jti as string | undefined) ?? '') as `0x${string}`
      await refusedAndNotGranted(user, await t.perm.post({ token, stepUpProof: await proofFor(user, 'grant-permissions', hash) }), /invalid or has expired/)
      await refusedAndNotGranted(user, await t.perm.post({ token }), /invalid or has expired/)
    }
  })

  test('a link of a session that has ended (logged out): invalid, with a proof made before the logout too', async () => {
    const user = await t.perm.lockedUser('prt-revoked@example.com')
    const token = await t.perm.tokenOf(user.walletToken)
    const stepUpProof = await proofFor(user, 'grant-permissions', grantHashOf(token))
    expect((await t.sandbox.post('/api/v2/wallet/logout', {}, user.walletToken)).status).toBe(200)
    expect((await t.perm.open(token)).status).toBe(400)
    await refusedAndNotGranted(user, await t.perm.post({ token, stepUpProof }), /invalid or has expired/, false)
    await refusedAndNotGranted(user, await t.perm.post({ token }), /invalid or has expired/, false)
  })
})

describe('red team: a user no factor can reach', () => {
  /** A WhatsApp user (no e-mail, no passkey) whose wallet lost the permission: a session that just signed in. */
  async function phoneUser(phone: string): Promise<LockedUser> {
    const sent = await t.sandbox.post('/api/v2/auth/login-whatsapp', { phoneNumber: phone })
    expect(sent.status, JSON.stringify(sent.body)).toBe(200)
    const inbox = (await t.sandbox.call(`/dev/api/inbox?to=${phone}`)).body as { code: string }[]
    const login = await t.sandbox.post('/api/v2/auth/verify-whatsapp', { verificationToken: sent.body.data.verificationToken, otp: inbox[0]!.code })
    const data = login.body.data.walletToken ? login.body.data : (await t.sandbox.post('/api/v2/account/create', {}, login.body.data.accessToken)).body.data
    const { rows } = await t.sandbox.store.query<{ address: string }>('SELECT address FROM wallets WHERE user_id = $1', [claimsOf(data.walletToken).sub])
    await t.perm.lock(rows[0]!.address)
    return { email: phone, walletToken: data.walletToken, address: rows[0]!.address }
  }

  test('is granted only within 5 minutes of signing in; later the page says to sign in again', async () => {
    const late = await phoneUser('6281200000071')
    const lateToken = await t.perm.tokenOf(late.walletToken)
    await t.sandbox.store.query("UPDATE session_sign_ins SET created_at = now() - interval '6 minutes' WHERE family_id = $1", [claimsOf(late.walletToken).fam])
    const refused = await t.perm.post({ token: lateToken })
    await refusedAndNotGranted(late, refused, /only within 5 minutes of signing in\. Sign in again/)
    expect(refused.html).not.toContain('Start again')

    const fresh = await phoneUser('6281200000072')
    expect((await t.perm.post({ token: await t.perm.tokenOf(fresh.walletToken) })).html).toContain('Permission granted')
  })
})
