import { InternalError, LimitExceededError, UnauthorizedError, UnsupportedMethodError } from '../bridge/error-classes.ts'
import type { IdentityToken } from '../bridge/index.ts'
import type { Context } from '../sdk/config.ts'
import { SdkError } from '../sdk/errors.ts'
import { walletTokenCall } from '../sdk/http.ts'
import type { Wallet } from './wallet.ts'

/** The provider's answer: a compact JWS (three base64url parts) and an ISO 8601 date. */
const jwt = /^[\w-]+\.[\w-]+\.[\w-]+$/

/**
 * The page asked for an identity token (kit.getIdentityToken). The frame asks the provider with the
 * session it holds, and the page gets the token and its expiry, nothing else of the answer: the
 * token names the user and is meant for the page's server. Only a page the user connected gets
 * one; a page that merely frames the wallet while someone is signed in learns nothing (4100), just
 * as it sees no account. A browser wallet or a WalletConnect wallet is not the provider's user.
 */
export async function identityToken(
  ctx: { wallet: Pick<Wallet, 'ui'>; client: { context?: Context | undefined } },
  nonce: string | undefined,
): Promise<IdentityToken> {
  const { session, connected, external } = ctx.wallet.ui.get()
  if (!session || !connected) throw new UnauthorizedError({ message: 'Nobody is signed in on this page: connect first (eth_requestAccounts)' })
  if (external || session.walletConnect || !ctx.client.context)
    throw new UnsupportedMethodError({ message: 'Identity tokens name a user of the embedded wallet; the connected wallet is not one' })
  const body: { nonce?: string } = nonce === undefined ? {} : { nonce }
  let answer: Partial<IdentityToken> | null
  try {
    answer = await walletTokenCall<Partial<IdentityToken>>(ctx.client.context, '/wallet/identity-token', body)
  } catch (error) {
    if (!(error instanceof SdkError)) throw new InternalError({ message: 'The provider could not be reached for an identity token' })
    // A wallet token refused, and its refresh refused too (that ends the session here).
    if (error.code === '401' || error.code === 'TOKEN_REFRESH_FAILED') throw new UnauthorizedError({ message: 'The session has ended: sign in again' })
    if (error.code === '429') throw new LimitExceededError({ message: 'Too many identity tokens for this session: try again later' })
    throw new InternalError({ message: `The provider issued no identity token: ${error.message}` })
  }
  // Minting takes a moment: the user may have disconnected this site, or the session ended or
  // changed hands in another tab. The token goes only to a page still connected to the same session.
  const now = ctx.wallet.ui.get()
  if (!now.session || !now.connected || now.external || now.session.address !== session.address)
    throw new UnauthorizedError({ message: 'This page was disconnected while the identity token was made: connect first (eth_requestAccounts)' })
  const { identityToken, expiresAt } = answer ?? {}
  if (typeof identityToken !== 'string' || !jwt.test(identityToken) || typeof expiresAt !== 'string')
    throw new InternalError({ message: 'The provider answered with no identity token' })
  return { identityToken, expiresAt }
}
