import type { CallOptions, Context, Tokens } from '../config.ts'
import { walletRequest } from '../http.ts'
import type { TokenArgs } from './types.ts'

/** What a session leaves in the token holder; the app-level ramp client secret stays. */
const sessionFields: readonly (keyof Tokens)[] = ['walletToken', 'refreshToken', 'address', 'rampAccessToken']

/**
 * POST wallet/logout: the service revokes the session (its refresh family and every wallet token
 * of it), so a copy of either token left anywhere is refused from then on. Sends the wallet token
 * as bearer and the refresh token in the body, each defaulting to the held one. When the session
 * logged out is the held one, the holder forgets it even if the call fails (offline, say): a
 * disconnect always ends the session here, and the error still tells the caller the server may not know.
 */
export async function logout(ctx: Context, params: TokenArgs = {}, options: CallOptions = {}): Promise<void> {
  const held = ctx.tokens.get()
  const walletToken = params.walletToken ?? held.walletToken
  const refreshToken = params.refreshToken ?? held.refreshToken
  const isHeld = (held.walletToken !== undefined && walletToken === held.walletToken) || (held.refreshToken !== undefined && refreshToken === held.refreshToken)
  if (walletToken === undefined && refreshToken === undefined) return
  try {
    await walletRequest<null>(
      ctx,
      { path: '/wallet/logout', body: { kind: 'json', value: refreshToken === undefined ? {} : { refreshToken } }, bearer: walletToken },
      options,
    )
  } finally {
    if (isHeld) ctx.tokens.clear(sessionFields)
  }
}
