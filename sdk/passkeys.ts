import { keccak256, stringToHex, type Hex } from 'viem'
import type { CallOptions, Context } from './config.ts'
import { SdkError } from './errors.ts'
import { type Method, refreshTokens, walletRequest } from './http.ts'
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
  /** Creation options; `stepUpProof` is a proof for `add-sign-in-method` (none only for a user with no second factor, just signed in). */
  registrationOptions(stepUpProof?: string, options?: CallOptions): Promise<PasskeyOptionsJson>
  register(credential: PasskeyCredentialJson, name?: string, options?: CallOptions): Promise<{ passkey: PasskeyInfo }>
  list(options?: CallOptions): Promise<{ passkeys: PasskeyInfo[] }>
  /** Removes passkey `id`; `stepUpProof` is a proof for `remove-sign-in-method` bound to `passkeyRemovalHash(id)`. */
  remove(id: string, stepUpProof?: string, options?: CallOptions): Promise<{ removed: boolean }>
}

/**
 * The request hash a step-up proof for removing passkey `id` is bound to, so a proof earned to remove
 * one passkey cannot remove another. The frame asks the code for it; the service recomputes it from
 * the id in the path. The one definition both sides import.
 */
export const passkeyRemovalHash = (id: string): Hex => keccak256(stringToHex(`remove-sign-in-method:${id}`))

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
    registrationOptions: (stepUpProof, options) => held('POST', '/wallet/passkeys/options', stepUpProof ? { stepUpProof } : {}, options),
    register: (credential, name, options) => held('POST', '/wallet/passkeys', name ? { credential, name } : { credential }, options),
    list: (options) => held('GET', '/wallet/passkeys', undefined, options),
    remove: (id, stepUpProof, options) => held('DELETE', `/wallet/passkeys/${encodeURIComponent(id)}`, stepUpProof ? { stepUpProof } : undefined, options),
  }
}
