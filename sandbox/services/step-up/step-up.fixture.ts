import { expect } from 'vitest'
import type { TestSandbox } from '../../sandbox.fixture.ts'

// What the step-up and export tests do again and again: start a step-up as a session, read the code
// the dev inbox got, answer it.

export type StepUpCalls = ReturnType<typeof stepUpCalls>

export function stepUpCalls(sandbox: TestSandbox) {
  const start = (walletToken: string | undefined, body: unknown = { action: 'export-key' }) => sandbox.post('/api/v2/auth/step-up/start', body, walletToken)
  const verify = (walletToken: string | undefined, body: unknown) => sandbox.post('/api/v2/auth/step-up/verify', body, walletToken)
  /** The newest code the dev inbox holds for `email`. */
  const inboxCode = async (email: string) => {
    const inbox = (await sandbox.call(`/dev/api/inbox?to=${encodeURIComponent(email)}`)).body as { code: string; subject: string; text: string }[]
    return inbox[0]!
  }
  /** Starts a step-up for `action` and answers it with the code from the inbox: the proof. */
  const proofFor = async (walletToken: string, email: string, action = 'export-key', request?: string) => {
    const started = await start(walletToken, { action, ...(request ? { request } : {}) })
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    const { code } = await inboxCode(email)
    const verified = await verify(walletToken, { challengeId: started.body.data.challengeId, code })
    expect(verified.status, JSON.stringify(verified.body)).toBe(200)
    return verified.body.data.stepUpProof as string
  }
  const exportKey = (walletToken: string | undefined, body: unknown) => sandbox.post('/api/v2/account/export-key', body, walletToken)
  /** Logs `email` in again: a second session (refresh family) of the same user. */
  const secondSession = async (email: string) => {
    const { verificationToken, code } = await sandbox.requestCode(email)
    const login = await sandbox.post('/api/v2/auth/verify-otp', { verificationToken, otp: code })
    expect(login.status).toBe(200)
    return login.body.data.walletToken as string
  }
  /** As if every code sent to `email` were older than the resend countdown. */
  const age = (email: string) =>
    sandbox.store.query("UPDATE otp_codes SET created_at = created_at - interval '6 minutes' WHERE destination IN ($1, $2)", [email, `${email} (step-up)`])
  return { start, verify, inboxCode, proofFor, exportKey, secondSession, age }
}

export const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000')
