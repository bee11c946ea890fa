import { createHash } from 'node:crypto'
import { privateKeyToAddress } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { otpPolicy } from '../auth/otp.ts'
import { stepUpCalls, wrongFor, type StepUpCalls } from '../step-up/step-up.fixture.ts'

// Key export is the one call that hands the wallet's key out, so every way around its step-up is
// tried here against the HTTP API itself, as a script holding a stolen wallet token would.

let sandbox: TestSandbox
let calls: StepUpCalls
beforeAll(async () => {
  // One line per request logged, as SANDBOX_LOG=1 does: the key must not be in any of them.
  sandbox = await startTestSandbox({ log: true })
  calls = stepUpCalls(sandbox)
})
afterAll(() => sandbox?.dispose())

/** Every refusal says step-up and names the action, so a client can show its step-up screen. */
const refused = (answer: { status: number; body: { message: string; data: unknown } }, reason: string) => {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403)
  expect(answer.body.message).toBe(`Step-up required: ${reason}`)
  expect(answer.body.data).toEqual({ stepUp: { action: 'export-key' } })
  expect(JSON.stringify(answer.body)).not.toMatch(/privateKey|0x[0-9a-f]{64}/i)
}

describe('POST /api/v2/account/export-key', () => {
  test('with a step-up proof for export-key: the key of the wallet, once, never logged', async () => {
    const email = 'export@example.com'
    const wallet = await sandbox.signUp(email)
    const proof = await calls.proofFor(wallet.walletToken, email)
    const logged: unknown[][] = []
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args)),
    )
    let answer: Awaited<ReturnType<StepUpCalls['exportKey']>>
    try {
      answer = await calls.exportKey(wallet.walletToken, { stepUpProof: proof })
    } finally {
      for (const spy of spies) spy.mockRestore()
    }
    expect(answer.status).toBe(200)
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expect(Object.keys(answer.body.data)).toEqual(['privateKey'])
    const key = answer.body.data.privateKey as `0x${string}`
    expect(key).toMatch(/^0x[0-9a-f]{64}$/)
    expect(privateKeyToAddress(key)).toBe(wallet.address)
    // The request was logged (path and status), the key and the proof were not.
    expect(logged.some((line) => String(line[0]).includes('/api/v2/account/export-key 200'))).toBe(true)
    expect(JSON.stringify(logged)).not.toContain(key.slice(2))
    expect(JSON.stringify(logged)).not.toContain(proof)

    refused(await calls.exportKey(wallet.walletToken, { stepUpProof: proof }), 'the step-up proof was already used')
  })

  test('no proof, an empty or made-up one: refused', async () => {
    const wallet = await sandbox.signUp('export-none@example.com')
    refused(await calls.exportKey(wallet.walletToken, {}), 'confirm it with a second factor first')
    refused(await calls.exportKey(wallet.walletToken, { stepUpProof: '' }), 'confirm it with a second factor first')
    refused(await calls.exportKey(wallet.walletToken, { stepUpProof: `sup_${'A'.repeat(43)}` }), 'the step-up proof is not valid')
    refused(await calls.exportKey(wallet.walletToken, { stepUpProof: 42 }), 'the step-up proof is not valid')
    expect((await calls.exportKey(wallet.walletToken, { stepUpProof: 'x', extra: 1 })).status).toBe(400)
  })

  test('no wallet token, or a refresh token: 401, and the proof is not spent', async () => {
    const email = 'export-bearer@example.com'
    const wallet = await sandbox.signUp(email)
    const proof = await calls.proofFor(wallet.walletToken, email)
    expect((await calls.exportKey(undefined, { stepUpProof: proof })).status).toBe(401)
    expect((await calls.exportKey(wallet.refreshToken, { stepUpProof: proof })).status).toBe(401)
    expect((await calls.exportKey(wallet.walletToken, { stepUpProof: proof })).status).toBe(200)
  })

  test('a proof for another action, or bound to a request, is refused and stays unspent', async () => {
    const email = 'export-action@example.com'
    const wallet = await sandbox.signUp(email)
    const other = await calls.proofFor(wallet.walletToken, email, 'add-sign-in-method')
    refused(await calls.exportKey(wallet.walletToken, { stepUpProof: other }), 'the step-up proof is for another action')
    await calls.age(email)
    const bound = await calls.proofFor(wallet.walletToken, email, 'export-key', `0x${'1'.repeat(64)}`)
    refused(await calls.exportKey(wallet.walletToken, { stepUpProof: bound }), 'the step-up proof is for another request')
    const rows = await sandbox.store.query<{ used_at: Date | null }>("SELECT used_at FROM step_up_proofs WHERE action = 'add-sign-in-method'")
    expect(rows.rows.map((row) => row.used_at)).toEqual([null])
  })

  test("another user's proof: refused, and it stays usable by its owner", async () => {
    const owner = await sandbox.signUp('export-owner@example.com')
    const thief = await sandbox.signUp('export-thief@example.com')
    const proof = await calls.proofFor(owner.walletToken, 'export-owner@example.com')
    refused(await calls.exportKey(thief.walletToken, { stepUpProof: proof }), 'the step-up proof is not valid')
    expect((await calls.exportKey(owner.walletToken, { stepUpProof: proof })).status).toBe(200)
  })

  test("another session's proof (the same user signed in elsewhere): refused", async () => {
    const email = 'export-family@example.com'
    const wallet = await sandbox.signUp(email)
    const proof = await calls.proofFor(wallet.walletToken, email)
    const elsewhere = await calls.secondSession(email)
    refused(await calls.exportKey(elsewhere, { stepUpProof: proof }), 'the step-up proof belongs to another session')
    // A refreshed wallet token is the same session: it may use it.
    const refreshed = (await sandbox.post('/api/v2/wallet/refresh', { refreshToken: wallet.refreshToken })).body.data
    expect((await calls.exportKey(refreshed.walletToken, { stepUpProof: proof })).status).toBe(200)
  })

  test('an expired proof: refused', async () => {
    const email = 'export-expired@example.com'
    const wallet = await sandbox.signUp(email)
    const proof = await calls.proofFor(wallet.walletToken, email)
    // As five minutes and a second later.
    await sandbox.store.query("UPDATE step_up_proofs SET expires_at = now() - interval '1 second' WHERE used_at IS NULL AND expires_at > now()")
    refused(await calls.exportKey(wallet.walletToken, { stepUpProof: proof }), 'the step-up proof has expired')
  })

  test('guessed codes: past the budget even the right code earns no proof, and export stays refused', async () => {
    const email = 'export-guess@example.com'
    const wallet = await sandbox.signUp(email)
    const started = await calls.start(wallet.walletToken)
    const { code } = await calls.inboxCode(email)
    for (let i = 0; i < otpPolicy.maxAttempts; i++)
      expect((await calls.verify(wallet.walletToken, { challengeId: started.body.data.challengeId, code: wrongFor(code) })).status).toBe(400)
    const right = await calls.verify(wallet.walletToken, { challengeId: started.body.data.challengeId, code })
    expect(right.status).toBe(400)
    expect(right.body.data).toBeNull()
    refused(await calls.exportKey(wallet.walletToken, {}), 'confirm it with a second factor first')
  })

  test('a logged-out session: its proof is refused', async () => {
    const email = 'export-logout@example.com'
    const wallet = await sandbox.signUp(email)
    const proof = await calls.proofFor(wallet.walletToken, email)
    expect((await sandbox.post('/api/v2/wallet/logout', { refreshToken: wallet.refreshToken })).status).toBe(200)
    const answer = await calls.exportKey(wallet.walletToken, { stepUpProof: proof })
    expect(answer.status).toBe(401)
    expect(answer.body.message).toBe('Session revoked')
    const row = await sandbox.store.query('SELECT used_at FROM step_up_proofs WHERE proof_hash = $1', [createHash('sha256').update(proof).digest('hex')])
    expect(row.rows).toEqual([{ used_at: null }])
  })

  test('two calls at once with one proof: one gets the key, the other is refused', async () => {
    const email = 'export-race@example.com'
    const wallet = await sandbox.signUp(email)
    const proof = await calls.proofFor(wallet.walletToken, email)
    const answers = await Promise.all([0, 1, 2].map(() => calls.exportKey(wallet.walletToken, { stepUpProof: proof })))
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403, 403])
    for (const answer of answers.filter((a) => a.status === 403)) refused(answer, 'the step-up proof was already used')
  })
})
