import type { CallOptions, Context } from '../config.ts'
import { SdkError } from '../errors.ts'
import { refreshTokens, walletRequest } from '../http.ts'
import { evmAddress } from './account.ts'
import { logout } from './logout.ts'
import type { NetworkAddress } from './types.ts'

export type RecoveryResult = { walletToken: string; refreshToken: string; address: NetworkAddress[] }

/**
 * POST account/recover with the recovery secret (form-encoded `secret0`), for the session the
 * holder keeps, or for a fresh login's `accessToken`. The service rebuilds the key from the
 * user's share and its own, checks it is the wallet's, and answers a new session, which the
 * holder keeps (as account/create's). Without an access token, a 401 refreshes the held pair once
 * and repeats the call, as the wallet calls do. A session of another wallet than the one held is
 * not taken: the holder keeps what it had.
 */
export async function recoverWallet(ctx: Context, params: { secret0: string; accessToken?: string }, options?: CallOptions): Promise<RecoveryResult> {
  const send = (bearer: string | undefined) =>
    walletRequest<RecoveryResult>(ctx, { path: '/account/recover', body: { kind: 'form', value: { secret0: params.secret0 } }, bearer }, options)
  const held = ctx.tokens.get()
  let result: RecoveryResult
  if (params.accessToken) result = await send(params.accessToken)
  else
    try {
      result = await send(held.walletToken)
    } catch (error) {
      if (!(error instanceof SdkError) || error.code !== '401' || !held.refreshToken) throw error
      result = await send((await refreshTokens(ctx, held.refreshToken)).walletToken)
    }
  const address = evmAddress(result?.address)
  if (!result?.walletToken || !result.refreshToken || !address) throw new SdkError('The service returned no session', { code: 'UNKNOWN_ERROR' })
  if (!params.accessToken && held.address && held.address.toLowerCase() !== address.toLowerCase()) {
    // Not taken, and not left alive either: nobody would hold it to end it later.
    await logout(ctx, { walletToken: result.walletToken, refreshToken: result.refreshToken }, options).catch(() => {})
    throw new SdkError('The service restored another wallet than this session', { code: 'UNKNOWN_ERROR' })
  }
  ctx.tokens.set({ walletToken: result.walletToken, refreshToken: result.refreshToken, address })
  return result
}
