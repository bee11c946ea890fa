import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { otherMachines, postFrom, startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { otpPolicy } from '../auth/otp.ts'
import { stepUpCalls, wrongFor, type StepUpCalls } from './step-up.fixture.ts'

// Step-up: a code to the user's e-mail, answered in the same session, earns a proof for one action.

let sandbox: TestSandbox
let calls: StepUpCalls
beforeAll(async () => {
  // 127.0.0.2 and up stand for other machines (the rate-limit test sends from one of its own).
  sandbox = await startTestSandbox({ clientAddressOf: otherMachines, rateLimits: { codesPerIp: { max: 60, windowMs: 600_000 } } })
  calls = stepUpCalls(sandbox)
})
afterAll(() => sandbox?.dispose())

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe('POST /api/v2/auth/step-up/start and /verify', () => {
  test("a code to the user's inbox, answered, earns a single-use proof bound to the user, session, action and request", async () => {
    const wallet = await sandbox.signUp('step-up@example.com')
    const request = `0x${'AB'.repeat(32)}`
    const started = await calls.start(wallet.walletToken, { action: 'export-key', request })
    expect(started.status).toBe(200)
    expect(started.headers.get('cache-control')).toBe('no-store')
    expect(started.body.data).toEqual({
      challengeId: expect.stringMatching(/^suc_[\w-]{43}$/),
      factor: 'email',
      action: 'export-key',
      expiresAt: expect.any(String),
      sentTo: 's•••@example.com',
    })
    const mail = await calls.inboxCode('step-up@example.com')
    expect(mail.subject).toBe('Your Wallet Kit Demo confirmation code')
    expect(mail.text).toContain("export your wallet's private key")
    expect(mail.code).toMatch(/^\d{6}$/)

    const verified = await calls.verify(wallet.walletToken, { challengeId: started.body.data.challengeId, code: mail.code })
    expect(verified.status).toBe(200)
    expect(verified.headers.get('cache-control')).toBe('no-store')
    const proof = verified.body.data.stepUpProof as string
    expect(verified.body.data).toEqual({ stepUpProof: expect.stringMatching(/^sup_[\w-]{43}$/), action: 'export-key', expiresAt: expect.any(String) })
    const lifetime = new Date(verified.body.data.expiresAt).getTime() - Date.now()
    expect(lifetime).toBeGreaterThan(4 * 60_000)
    expect(lifetime).toBeLessThanOrEqual(5 * 60_000)

    // Stored only as its hash, with its bindings; the challenge is gone, its id stored only hashed too.
    const { rows } = await sandbox.store.query<Record<string, unknown>>('SELECT * FROM step_up_proofs')
    expect(JSON.stringify(rows)).not.toContain(proof)
    const userId = (await sandbox.store.query<{ user_id: string }>('SELECT user_id FROM wallets WHERE address = $1', [wallet.address])).rows[0]!.user_id
    expect(rows.find((row) => row.proof_hash === sha256(proof))).toMatchObject({
      user_id: userId,
      action: 'export-key',
      request_hash: request.toLowerCase(),
      factor: 'email',
      used_at: null,
      family_id: expect.any(String),
    })
    expect((await sandbox.store.query('SELECT 1 FROM step_up_challenges WHERE id_hash = $1', [sha256(started.body.data.challengeId)])).rows).toEqual([])
    // The challenge is spent: its code does not earn a second proof.
    expect((await calls.verify(wallet.walletToken, { challengeId: started.body.data.challengeId, code: mail.code })).status).toBe(400)
  })

  test('refuses a bad action, a bad request hash, unknown fields, and a caller without a wallet token', async () => {
    const wallet = await sandbox.signUp('step-up-input@example.com')
    const refused = async (body: unknown, token: string | undefined = wallet.walletToken) => (await calls.start(token, body)).body.message as string
    expect(await refused({ action: 'steal-everything' })).toMatch(/^action must be one of export-key, add-sign-in-method/)
    expect(await refused({ action: '__proto__' })).toMatch(/^action must be one of/)
    expect(await refused({})).toMatch(/^action must be one of/)
    expect(await refused({ action: 'export-key', request: '0x1234' })).toBe('request must be a 0x-hex 32-byte hash of the request')
    expect(await refused({ action: 'export-key', extra: 1 })).toBe('Unknown field in body: extra')
    expect((await calls.start(undefined)).status).toBe(401)
    expect((await calls.start(wallet.refreshToken)).status).toBe(401)
    // A login that has no wallet yet holds an access token: not enough.
    const { verificationToken, code } = await sandbox.requestCode('step-up-no-wallet@example.com')
    const login = await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
    expect((await calls.start(login.body.data.accessToken)).status).toBe(401)
    expect((await calls.verify(undefined, { challengeId: 'x', code: '123456' })).status).toBe(401)
    // Nothing was sent for any of them.
    expect((await sandbox.store.query('SELECT 1 FROM step_up_challenges')).rows.length).toBeLessThanOrEqual(1)
  })

  test('a user without an e-mail address (WhatsApp, password) gets a clear refusal and no code is sent', async () => {
    expect((await sandbox.post('/api/v2/auth/register', { username: 'step-up-pw', password: 'long enough pw' })).status).toBe(200)
    const login = (await sandbox.post('/api/v2/auth/login', { username: 'step-up-pw', password: 'long enough pw' })).body.data
    const created = (await sandbox.post('/api/v2/account/create', {}, login.accessToken)).body.data
    // A WhatsApp user: its account has a phone number and no e-mail address.
    const phone = '6281234500001'
    const sent = await sandbox.post('/api/v2/auth/login-whatsapp', { phoneNumber: phone })
    const { code } = (await sandbox.call(`/dev/api/inbox?to=${phone}`)).body[0]
    const viaWhatsApp = await sandbox.post('/api/v2/auth/verify-whatsapp', { verificationToken: sent.body.data.verificationToken, otp: code })
    const whatsAppWallet = (await sandbox.post('/api/v2/account/create', {}, viaWhatsApp.body.data.accessToken)).body.data
    const before = (await sandbox.store.query('SELECT 1 FROM inbox_messages')).rows.length
    for (const token of [created.walletToken, whatsAppWallet.walletToken]) {
      const answer = await calls.start(token)
      expect(answer.status).toBe(409)
      expect(answer.body).toEqual({
        status: 409,
        message: 'No second factor is set up for this account: a confirmation code needs an e-mail address on the account',
        data: { factors: [] },
      })
    }
    expect((await sandbox.store.query('SELECT 1 FROM inbox_messages')).rows.length).toBe(before)
  })

  test("another session's challenge is unknown, even with the right code; the owner's session still passes it", async () => {
    const email = 'step-up-family@example.com'
    const wallet = await sandbox.signUp(email)
    const started = await calls.start(wallet.walletToken)
    const { code } = await calls.inboxCode(email)
    const other = await calls.secondSession(email)
    const stranger = await sandbox.signUp('step-up-stranger@example.com')
    for (const token of [other, stranger.walletToken]) {
      const answer = await calls.verify(token, { challengeId: started.body.data.challengeId, code })
      expect(answer.body.message).toBe('Unknown or expired step-up challenge, start again')
    }
    expect((await calls.verify(wallet.walletToken, { challengeId: started.body.data.challengeId, code })).status).toBe(200)
  })

  test('the right code sent twice at once earns one proof', async () => {
    const email = 'step-up-race@example.com'
    const wallet = await sandbox.signUp(email)
    const started = await calls.start(wallet.walletToken)
    const { code } = await calls.inboxCode(email)
    const answers = await Promise.all([0, 1, 2].map(() => calls.verify(wallet.walletToken, { challengeId: started.body.data.challengeId, code })))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400])
    const proofs = await sandbox.store.query('SELECT 1 FROM step_up_proofs p JOIN wallets w USING (user_id) WHERE w.address = $1', [wallet.address])
    expect(proofs.rows).toHaveLength(1)
  })

  test('a step-up code never logs in, and a login code never passes a step-up', async () => {
    const email = 'step-up-purpose@example.com'
    const wallet = await sandbox.signUp(email)
    const started = await calls.start(wallet.walletToken)
    const { code } = await calls.inboxCode(email)
    const asLogin = await sandbox.post('/api/v2/auth/verify-otp', { verificationToken: started.body.data.challengeId, otp: code })
    expect(asLogin.body.message).toBe('Invalid verification token')
    await calls.age(email)
    const login = await sandbox.requestCode(email)
    const asStepUp = await calls.verify(wallet.walletToken, { challengeId: login.verificationToken, code: login.code })
    expect(asStepUp.body.message).toBe('Unknown or expired step-up challenge, start again')
  })

  test("wrong codes: each code takes 5, then even the right one is refused; the user's daily budget then refuses all", async () => {
    const email = 'step-up-guess@example.com'
    const wallet = await sandbox.signUp(email)
    let spent = 0
    while (spent < otpPolicy.maxFailuresPerClient) {
      const started = await calls.start(wallet.walletToken)
      expect(started.status, JSON.stringify(started.body)).toBe(200)
      const { code } = await calls.inboxCode(email)
      for (let i = 0; i < otpPolicy.maxAttempts; i++, spent++)
        expect((await calls.verify(wallet.walletToken, { challengeId: started.body.data.challengeId, code: wrongFor(code) })).body.message).toBe('Invalid OTP')
      const late = await calls.verify(wallet.walletToken, { challengeId: started.body.data.challengeId, code })
      expect(late.body.message).toBe('OTP expired, request a new code')
    }
    const last = await calls.start(wallet.walletToken)
    const { code } = await calls.inboxCode(email)
    const right = await calls.verify(wallet.walletToken, { challengeId: last.body.data.challengeId, code })
    expect(right.status).toBe(429)
    expect(right.body.message).toBe('Too many wrong codes for this e-mail address, try again in 24 hours')
    expect((await sandbox.store.query('SELECT 1 FROM step_up_proofs p JOIN wallets w USING (user_id) WHERE w.address = $1', [wallet.address])).rows).toEqual([])
  })

  test('code requests count against the per-IP budget of the login codes', async () => {
    const wallet = await sandbox.signUp('step-up-rate@example.com')
    const headers = {
      'x-app-id': 'demo',
      'x-environment': 'development',
      'x-client-secret': 'demo-client-secret',
      authorization: `Bearer ${wallet.walletToken}`,
    }
    const statuses: number[] = []
    let last = ''
    for (let i = 0; i <= 60; i++) {
      const answer = await postFrom(sandbox, '127.0.0.7', '/api/v2/auth/step-up/start', { action: 'export-key' }, headers)
      statuses.push(answer.status)
      last = answer.body.message
    }
    expect(statuses[0]).toBe(200)
    expect(statuses.at(-1)).toBe(429)
    expect(last).toMatch(/^Too many requests, try again in \d+ seconds$/)
  })
})
