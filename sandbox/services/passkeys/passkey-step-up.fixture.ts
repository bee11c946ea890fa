import { expect } from 'vitest'
import { passkeyRemovalHash } from '../../../sdk/passkeys.ts'
import type { TestSandbox } from '../../sandbox.fixture.ts'

// What the passkey tests do before each change of a user's passkeys: earn a step-up proof with the
// code the dev inbox got (as the frame does), then ask for creation options or remove one with it.

/** A signed-in user of the tests: the e-mail address the codes go to and the session's wallet token. */
export type PasskeyUser = { email: string; walletToken: string }

export function passkeyStepUp(sandbox: TestSandbox) {
  /** A proof for `action` (bound to `request`) earned by `user` in `app`. */
  const proof = async (user: PasskeyUser, action: string, request?: string, app = 'demo'): Promise<string> => {
    // As if the last code were older than the resend countdown (tests ask for several in a row).
    await sandbox.store.query("UPDATE otp_codes SET created_at = created_at - interval '6 minutes' WHERE destination = $1", [`${user.email} (step-up)`])
    const started = await sandbox.post('/api/v2/auth/step-up/start', { action, ...(request ? { request } : {}) }, user.walletToken, app)
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
  const addProof = (user: PasskeyUser, app = 'demo') => proof(user, 'add-sign-in-method', undefined, app)
  const removeProof = (user: PasskeyUser, id: string, app = 'demo') => proof(user, 'remove-sign-in-method', passkeyRemovalHash(id), app)
  /** POST passkeys/options with a fresh proof: the answer (status and body). */
  const options = async (user: PasskeyUser, app = 'demo') =>
    sandbox.post('/api/v2/wallet/passkeys/options', { stepUpProof: await addProof(user, app) }, user.walletToken, app)
  /** DELETE passkeys/<id> with `stepUpProof` in the body (none: no body). */
  const remove = (walletToken: string, id: string, stepUpProof?: string, headers: Record<string, string> = {}) =>
    sandbox.call(`/api/v2/wallet/passkeys/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${walletToken}`, ...headers },
      ...(stepUpProof === undefined ? {} : { body: JSON.stringify({ stepUpProof }) }),
    })
  /** Removes passkey `id` with a proof earned for it. */
  const removeWithProof = async (user: PasskeyUser, id: string) => remove(user.walletToken, id, await removeProof(user, id))
  return { proof, addProof, removeProof, options, remove, removeWithProof }
}
