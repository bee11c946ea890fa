import type { IncomingHttpHeaders } from 'node:http'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { otpPolicy } from './otp.ts'
import { otherMachines, postFrom as postFromAddress, startTestSandbox, type TestSandbox } from '../../sandbox.fixture.ts'

/** The demo app's back end (its client secret). */
const backEnd = { 'x-app-id': 'demo', 'x-environment': 'development', 'x-client-secret': 'demo-client-secret' }

// Code login, attacked as a switch: before, ~24 requests from anywhere (a few codes asked for the
// victim's address, 20 wrong guesses) locked that e-mail address out of code login for 24 hours,
// the owner's own fresh code included. The budget is now per (address, requesting client).

let sandbox: TestSandbox

beforeAll(async () => {
  // 127.0.0.2, 127.0.0.3 stand for other machines: loopback alone is one client.
  sandbox = await startTestSandbox({ clientAddressOf: otherMachines })
})
afterAll(() => sandbox?.dispose())

type Answer = { status: number; headers: IncomingHttpHeaders; body: { message?: string; data?: { verificationToken?: string; accessToken?: string } } }

/** POST from a chosen loopback source address, as another machine would (otherMachines). */
const postFrom = (localAddress: string, path: string, body: string, contentType: string): Promise<Answer> =>
  postFromAddress(sandbox, localAddress, `/api/v2/auth/${path}`, body, { 'content-type': contentType, ...backEnd })

/** Asks for a code from `from`; answers the verification token and the code the inbox got. */
async function requestCodeFrom(from: string, email: string) {
  const sent = await postFrom(from, 'login-otp', new URLSearchParams({ email }).toString(), 'application/x-www-form-urlencoded')
  expect(sent.status).toBe(200)
  const inbox = (await sandbox.call(`/dev/api/inbox?to=${encodeURIComponent(email)}`)).body as { code: string }[]
  return { verificationToken: sent.body.data!.verificationToken!, code: inbox[0]!.code }
}
const guessFrom = (from: string, verificationToken: string, otp: string) =>
  postFrom(from, 'verify-otp', JSON.stringify({ verificationToken, otp }), 'application/json')
const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000')
/** As if the resend countdown had run out for every code of `email`. */
const age = (email: string) => sandbox.store.query("UPDATE otp_codes SET created_at = created_at - interval '6 minutes' WHERE destination = $1", [email])

describe('an attacker cannot lock an e-mail address out of code login', () => {
  const attacker = '127.0.0.2'
  const owner = '127.0.0.3'

  test("after the attacker's wrong codes the owner gets a code and logs in; the attacker stays throttled", async () => {
    const email = 'locked-out@example.com'
    // The attack: codes asked for the victim's address, each guessed wrong until the budget is spent.
    let requests = 0
    for (let spent = 0; spent < otpPolicy.maxFailuresPerClient; spent += otpPolicy.maxAttempts) {
      const { verificationToken, code } = await requestCodeFrom(attacker, email)
      requests++
      for (let attempt = 0; attempt < otpPolicy.maxAttempts; attempt++) {
        expect((await guessFrom(attacker, verificationToken, wrongFor(code))).body.message).toBe('Invalid OTP')
        requests++
      }
      await age(email)
    }
    expect(requests).toBeLessThanOrEqual(25)

    // The attacker is throttled: a new code of its own is refused, even the right one.
    const next = await requestCodeFrom(attacker, email)
    const refused = await guessFrom(attacker, next.verificationToken, next.code)
    expect(refused.status).toBe(429)
    expect(refused.body.message).toBe('Too many wrong codes for this e-mail address, try again in 24 hours')

    // The owner, from their own address, asks for a code (the attacker's live code does not hold
    // it up) and logs in with it.
    const own = await requestCodeFrom(owner, email)
    const login = await guessFrom(owner, own.verificationToken, own.code)
    expect(login.status).toBe(200)
    expect(login.body.data?.accessToken).toEqual(expect.any(String))

    // Still throttled after the owner's login.
    await age(email)
    const again = await requestCodeFrom(attacker, email)
    expect((await guessFrom(attacker, again.verificationToken, again.code)).status).toBe(429)
  })

  test("a new code asked for by someone else does not kill the owner's pending code", async () => {
    const email = 'pending@example.com'
    const own = await requestCodeFrom(owner, email)
    await age(email)
    await requestCodeFrom(attacker, email)
    expect((await guessFrom(owner, own.verificationToken, own.code)).status).toBe(200)
  })

  test('brute force stays bounded: a code takes at most its attempts, also in parallel, and each client its budget', async () => {
    const email = 'parallel@example.com'
    const { verificationToken, code } = await requestCodeFrom(attacker, email)
    const wrong = Array.from({ length: 20 }, (_, n) => String((Number(code) + 1 + n) % 1_000_000).padStart(6, '0'))
    const answers = await Promise.all(wrong.map((otp) => guessFrom(attacker, verificationToken, otp)))
    expect(answers.filter((answer) => answer.body.message === 'Invalid OTP')).toHaveLength(otpPolicy.maxAttempts)
    expect(answers.filter((answer) => answer.body.message === 'OTP expired, request a new code')).toHaveLength(20 - otpPolicy.maxAttempts)
    // The code is dead: the right one too.
    expect((await guessFrom(attacker, verificationToken, code)).body.message).toBe('OTP expired, request a new code')
    // Only the guesses a code took are charged to the client.
    const { rows } = await sandbox.store.query<{ failures: number }>("SELECT failures FROM otp_guess_budgets WHERE destination = $1 AND client <> '*'", [email])
    expect(rows).toEqual([{ failures: otpPolicy.maxAttempts }])
  })

  test('once an address has many wrong codes from many clients, each code takes one attempt: the owner still logs in', async () => {
    const email = 'distributed@example.com'
    // As if many clients had guessed wrong today.
    await sandbox.store.query(
      "INSERT INTO otp_guess_budgets (app_id, environment, destination, client, window_start, failures) VALUES ('demo', 'development', $1, '*', now(), $2)",
      [email, otpPolicy.failuresBeforeOneAttempt],
    )
    const stranger = await requestCodeFrom(attacker, email)
    expect((await guessFrom(attacker, stranger.verificationToken, wrongFor(stranger.code))).body.message).toBe('Invalid OTP')
    expect((await guessFrom(attacker, stranger.verificationToken, stranger.code)).body.message).toBe('OTP expired, request a new code')
    const own = await requestCodeFrom(owner, email)
    expect((await guessFrom(owner, own.verificationToken, own.code)).status).toBe(200)
  })
})
