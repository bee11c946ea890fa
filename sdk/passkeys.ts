import type { CallOptions, Context } from './config.ts'
import { SdkError } from './errors.ts'
import type { Method } from './http.ts'
import { refreshTokens } from './wallet/refresh.ts'
import { walletRequest } from './wallet/transport.ts'
import type { LoginResult } from './wallet/types.ts'

// The wallet service's passkey calls, as the frame makes them: sign-in (the app only) and the
// signed-in user's passkeys (the held wallet token). The browser's ceremony itself is the frame's.

/** WebAuthn options as the service sends them (the JSON form, binary fields base64url). */
export type PasskeyOptionsJson = Record<string, unknown> & { challenge: string }

/** A credential in its JSON form (PublicKeyCredential.toJSON), as the service takes it. */
export type PasskeyCredentialJson = Record<string, unknown> & { id: string }

/** What the user sees of one of their passkeys. */
export type PasskeyInfo = { id: string; name: string; createdAt: string; lastUsedAt: string | null; backedUp: boolean }

export type PasskeyClient = {
  signInOptions(options?: CallOptions): Promise<PasskeyOptionsJson>
  /** The login answer (the tokens are not kept here: hand it to the auth client's `adopt`). */
  signIn(credential: PasskeyCredentialJson, options?: CallOptions): Promise<LoginResult>
  registrationOptions(options?: CallOptions): Promise<PasskeyOptionsJson>
  register(credential: PasskeyCredentialJson, name?: string, options?: CallOptions): Promise<{ passkey: PasskeyInfo }>
  list(options?: CallOptions): Promise<{ passkeys: PasskeyInfo[] }>
  remove(id: string, options?: CallOptions): Promise<{ removed: boolean }>
}

export function createPasskeyClient(ctx: Context): PasskeyClient {
  const json = (value: object) => ({ kind: 'json' as const, value })
  /** A call with the held wallet token; a 401 refreshes the pair once and repeats it. */
  const held = async <T>(method: Method, path: string, body: object | undefined, options?: CallOptions): Promise<T> => {
    const send = (bearer: string | undefined) => walletRequest<T>(ctx, { method, path, ...(body ? { body: json(body) } : {}), bearer }, options)
    const { walletToken, refreshToken } = ctx.tokens.get()
    try {
      return await send(walletToken)
    } catch (error) {
      if (!(error instanceof SdkError) || error.code !== '401' || !refreshToken) throw error
      return send((await refreshTokens(ctx, refreshToken)).walletToken)
    }
  }
  return {
    signInOptions: (options) => walletRequest(ctx, { path: '/auth/passkey/options', body: json({}) }, options),
    signIn: (credential, options) => walletRequest(ctx, { path: '/auth/passkey/verify', body: json({ credential }) }, options),
    registrationOptions: (options) => held('POST', '/wallet/passkeys/options', {}, options),
    register: (credential, name, options) => held('POST', '/wallet/passkeys', name ? { credential, name } : { credential }, options),
    list: (options) => held('GET', '/wallet/passkeys', undefined, options),
    remove: (id, options) => held('DELETE', `/wallet/passkeys/${encodeURIComponent(id)}`, undefined, options),
  }
}
