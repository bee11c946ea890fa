import type { Hex } from 'viem'
import { expect } from 'vitest'
import type { TestSandbox } from '../../sandbox.fixture.ts'

/**
 * A step-up proof for `action` bound to `request` (a hash), earned by `user` of `app` with the code
 * the dev inbox got, as the frame earns one: start, read the code, verify.
 */
export async function stepUpProofFor(
  sandbox: TestSandbox,
  app: string,
  user: { email: string; walletToken: string },
  request: Hex | undefined,
  action = 'send-transaction',
): Promise<string> {
  // As if the last code were older than the resend countdown.
  await sandbox.store.query("UPDATE otp_codes SET created_at = created_at - interval '6 minutes' WHERE destination = $1", [`${user.email} (step-up)`])
  const started = await sandbox.post('/api/v2/auth/step-up/start', { action, ...(request && { request }) }, user.walletToken, app)
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  const inbox = (await sandbox.call(`/dev/api/inbox?to=${encodeURIComponent(user.email)}`)).body as { code: string }[]
  const verified = await sandbox.post(
    '/api/v2/auth/step-up/verify',
    { challengeId: started.body.data.challengeId, code: inbox[0]!.code },
    user.walletToken,
    app,
  )
  expect(verified.status, JSON.stringify(verified.body)).toBe(200)
  return verified.body.data.stepUpProof as string
}
