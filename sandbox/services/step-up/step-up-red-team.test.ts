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
