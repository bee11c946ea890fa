import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { otherMachines, postFrom, startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'
import { otpPolicy } from '../auth/otp.ts'
import { stepUpCalls, wrongFor, type StepUpCalls } from './step-up.fixture.ts'

// Red team, step-up: what a holder of a stolen session (wallet token) can do to get a proof
// without the user's inbox, and what odd requests do.

let sandbox: TestSandbox
let calls: StepUpCalls
beforeAll(async () => {
  // 127.0.0.2 and up stand for other machines: the attacker's many addresses.
  sandbox = await startTestSandbox({ clientAddressOf: otherMachines, rateLimits: { codesPerIp: { max: 200, windowMs: 600_000 } } })
  calls = stepUpCalls(sandbox)
})
afterAll(() => sandbox?.dispose())

const headersFor = (walletToken: string) => ({
  'x-app-id': 'demo',
  'x-environment': 'development',
  'x-client-secret': 'demo-client-secret',
  authorization: `Bearer ${walletToken}`,
})

describe('red team: guessing step-up codes with a stolen session', () => {
  test('moving to another address buys no more wrong codes: the budget is the session’s, not the address’s', async () => {
    const email = 'red-step-up-rotate@example.com'
    const wallet = await sandbox.signUp(email)
    const headers = headersFor(wallet.walletToken)
    // One guess round from `address`: a fresh challenge, its code's tries spent on wrong codes.
    const round = async (address: string) => {
      const started = await postFrom(sandbox, address, '/api/v2/auth/step-up/start', { action: 'export-key' }, headers)
      expect(started.status, JSON.stringify(started.body)).toBe(200)
      const { code } = await calls.inboxCode(email)
      const messages: string[] = []
      for (let i = 0; i < otpPolicy.maxAttempts; i++) {
        const answer = await postFrom(
          sandbox,
          address,
          '/api/v2/auth/step-up/verify',
          { challengeId: started.body.data.challengeId, code: wrongFor(code) },
          headers,
        )
        messages.push(answer.body.message)
      }
      return messages
    }
    let spent = 0
    for (let n = 2; spent < otpPolicy.maxFailuresPerClient; n++, spent += otpPolicy.maxAttempts)
      expect(await round(`127.0.0.${n}`)).toEqual(Array(otpPolicy.maxAttempts).fill('Invalid OTP'))
    // The session's wrong-code budget is spent: from a new address its codes are not even checked.
    const fresh = await round('127.0.0.40')
    expect(fresh[0]).toMatch(/^Too many wrong codes/)
    // The user's other session (their own device) is not locked out by it.
    const own = await calls.secondSession(email)
    expect((await calls.proofFor(own, email)).startsWith('sup_')).toBe(true)
  })
})

describe('red team: odd requests to step-up and export-key', () => {
  const writes = async () =>
    Number(
      (await sandbox.store.query<{ n: string }>('SELECT (SELECT count(*) FROM step_up_challenges) + (SELECT count(*) FROM step_up_proofs) AS n')).rows[0]!.n,
    )

  test('a huge body, control characters, odd types and __proto__: each a 4xx, nothing written', async () => {
    const wallet = await sandbox.signUp('red-step-up-input@example.com')
    const before = await writes()
    const huge = JSON.stringify({ action: 'export-key', request: `0x${'a'.repeat(100_000)}` })
    for (const path of ['/api/v2/auth/step-up/start', '/api/v2/auth/step-up/verify', '/api/v2/account/export-key'])
      expect((await sandbox.post(path, huge, wallet.walletToken)).status).toBe(413)
    const odd: [string, string][] = [
      ['/api/v2/auth/step-up/start', '{"action":"export-key\u0000"}'],
      ['/api/v2/auth/step-up/start', '{"action":["export-key"]}'],
      ['/api/v2/auth/step-up/start', '{"action":"export-key","__proto__":{"request":null}}'],
      ['/api/v2/auth/step-up/start', `{"action":"export-key","request":"0X${'a'.repeat(64)}"}`],
      ['/api/v2/auth/step-up/verify', '{"challengeId":{"$ne":null},"code":"123456"}'],
      ['/api/v2/auth/step-up/verify', '{"challengeId":"suc_x","code":123456}'],
      ['/api/v2/auth/step-up/verify', `{"challengeId":"${'s'.repeat(5000)}","code":"123456"}`],
      ['/api/v2/account/export-key', '{"stepUpProof":["sup_x"]}'],
      ['/api/v2/account/export-key', '{"stepUpProof":12345678901234567890}'],
      ['/api/v2/account/export-key', `{"stepUpProof":"${'p'.repeat(10_000)}"}`],
      ['/api/v2/account/export-key', '{"stepUpProof":"sup_x","privateKey":"0x"}'],
    ]
    for (const [path, body] of odd) {
      const answer = await sandbox.post(path, body, wallet.walletToken)
      expect(answer.status, `${path} ${body.slice(0, 80)}: ${JSON.stringify(answer.body)}`).toBeGreaterThanOrEqual(400)
      expect(answer.status).toBeLessThan(500)
      expect(JSON.stringify(answer.body)).not.toMatch(/privateKey"?:"?0x/)
    }
    expect(await writes()).toBe(before)
  })

  test("a proof earned in the app's development environment buys no key in its production environment", async () => {
    const email = 'red-step-up-env@example.com'
    const wallet = await sandbox.signUp(email)
    const proof = await calls.proofFor(wallet.walletToken, email)
    const elsewhere = await sandbox.call('/api/v2/account/export-key', {
      method: 'POST',
      body: JSON.stringify({ stepUpProof: proof }),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${wallet.walletToken}`, 'x-environment': 'production' },
    })
    // The wallet token is the first to be refused there (the proof's own environment binding, in
    // takeProof, stands behind it: with it removed this still holds).
    expect(elsewhere.body).toEqual({ status: 401, message: 'Invalid token', data: null })
    // Still unspent where it was earned.
    const home = await calls.exportKey(wallet.walletToken, { stepUpProof: proof })
    expect(home.status).toBe(200)
    expect(home.body.data.privateKey).toMatch(/^0x[0-9a-f]{64}$/)
  })
})
