import { createPasskeyClient } from '../../sdk/passkeys.ts'
import { postLoginDelayMs } from '../constants.ts'
import type { WidgetContext } from '../context.ts'
import { completeLogin } from './complete-login.ts'
import { getPasskey } from './passkey-ceremony.ts'

/**
 * Signs in with a passkey: a challenge from the service, the browser's ceremony, the service's check,
 * then the login completes as any other (the tokens kept by the session owner, the modal closed).
 */
export async function passkeyLogin(ctx: Pick<WidgetContext, 'wallet' | 'client'>): Promise<void> {
  const { client } = ctx
  if (!client.context) throw new Error('Passkeys are not available here')
  const service = createPasskeyClient(client.context)
  const credential = await getPasskey(await service.signInOptions())
  const login = await client.auth.adopt(await service.signIn(credential))
  await completeLogin(ctx, login, postLoginDelayMs.social)
}
