import type { Hex } from 'viem'
import { passkeyRemovalHash } from '../../../sdk/passkeys.ts'
import type { TestSandbox } from '../../sandbox.fixture.ts'
import { stepUpProofFor } from '../wallet/step-up-proof.fixture.ts'

// What the passkey tests do before each change of a user's passkeys: earn a step-up proof with the
// code the dev inbox got (as the frame does), then ask for creation options or remove one with it.

/** A signed-in user of the tests: the e-mail address the codes go to and the session's wallet token. */
export type PasskeyUser = { email: string; walletToken: string }

export function passkeyStepUp(sandbox: TestSandbox) {
  /** A proof for `action` (bound to `request`) earned by `user` in `app`. */
  const proof = (user: PasskeyUser, action: string, request?: Hex, app = 'demo'): Promise<string> => stepUpProofFor(sandbox, app, user, request, action)
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
