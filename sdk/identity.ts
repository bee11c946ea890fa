import { SdkError } from './errors.ts'
import { isPrivateChannel } from './config.ts'

// Identity tokens: after a user signs in, the wallet frame can ask the provider for a short-lived
// JWT naming who signed in to which app. The host page posts it to its own server, which checks it
// here against the provider's published keys (JWKS) before trusting a word of it.

/** The `typ` header of an identity token: no other JWT the provider signs can stand in for one. */
export const identityTokenType = 'wallet-kit-identity+jwt'

/** Where the provider publishes the public keys its identity tokens are signed with. */
export const jwksPath = '/.well-known/jwks.json'

/** How the session began. New methods may be added: treat an unknown one as a plain string. */
export type IdentitySignInMethod = 'email' | 'whatsapp' | 'google' | 'apple' | 'telegram' | 'password' | 'recovery' | 'passkey' | 'unknown' | (string & {})

/** The payload as the provider signs it (JWT claim names). */
export type IdentityTokenPayload = {
  iss: string
  /** The app id. */
  aud: string
  /** The user's id at the provider: stable across sessions and sign-in methods of this app. */
  sub: string
  iat: number
  exp: number
  jti: string
  environment: 'production' | 'development'
  /** The user's embedded wallet (EOA). */
  wallet_address: `0x${string}`
  /** The user's smart accounts in this app, one per chain where one exists (none: empty). */
  smart_accounts: { chain_id: number; address: `0x${string}` }[]
  sign_in_method: IdentitySignInMethod
  /** Only when the page asked for the token with one (bind a token to your own sign-in attempt). */
  nonce?: string
}

/** A verified identity token's claims. */
export type IdentityClaims = {
  issuer: string
  appId: string
  environment: 'production' | 'development'
  userId: string
  walletAddress: `0x${string}`
  smartAccounts: { chainId: number; address: `0x${string}` }[]
  signInMethod: IdentitySignInMethod
  nonce?: string
  /** Seconds since the epoch. */
  issuedAt: number
  /** Seconds since the epoch. */
  expiresAt: number
  /** The token's own id (`jti`): a server that must see each token once can remember it until `expiresAt`. */
  tokenId: string
}

export type VerifyIdentityTokenOptions = {
  /** Your app id: a token issued to another app is refused. */
  appId: string
  /** The provider's origin, e.g. `http://localhost:8787` for the sandbox: the expected issuer, and where its JWKS is. */
  providerUrl: string
  /** The expected `iss` when it is not `providerUrl`'s origin. */
  issuer?: string
  /** Where the keys are, when not `<providerUrl>/.well-known/jwks.json`. https, or plain HTTP on this machine only. */
  jwksUrl?: string
  /**
   * The environment your back end serves: a token of the other one is refused. Required: a token a
   * development page got (same app id, same issuer) must never sign anyone in to production.
   * The sandbox's data set is `development` unless the page's kit says `env: 'production'`.
   */
  environment: 'production' | 'development'
  /** Refuse a token without this exact nonce. */
  nonce?: string
  /** Clock skew allowed on `exp` and `iat`, in seconds: 5 unless given, at most 60. */
  clockToleranceSeconds?: number
}

type KeySet = ReturnType<typeof import('jose').createRemoteJWKSet>

/**
 * One key set per JWKS URL for the life of the process: jose caches the keys (10 minutes) and
 * fetches again when a token names a key it has not seen (at most every 30 s), so a server verifying
 * every request fetches the JWKS rarely. The provider publishes its next key before signing with it.
 */
const keySets = new Map<string, KeySet>()
const maxKeySets = 32

/** Verifies an identity token (ES256 only, issuer, audience, expiry, type) and returns its claims; throws SdkError otherwise. */
export async function verifyIdentityToken(token: string, options: VerifyIdentityTokenOptions): Promise<IdentityClaims> {
  const { issuer, jwksUrl, clockTolerance } = settingsOf(options)
  if (typeof token !== 'string' || token.length === 0 || token.length > 16_384) throw invalid('Identity token is missing or malformed')
  const { createRemoteJWKSet, errors, jwtVerify } = await import('jose')
  let keys = keySets.get(jwksUrl)
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUrl))
    keySets.set(jwksUrl, keys)
    if (keySets.size > maxKeySets) keySets.delete(keySets.keys().next().value as string)
  }
  const payload = await jwtVerify(token, keys, {
    algorithms: ['ES256'],
    typ: identityTokenType,
    issuer,
    audience: options.appId,
    clockTolerance,
    requiredClaims: ['iss', 'aud', 'sub', 'iat', 'exp', 'jti'],
  }).then(
    (verified) => verified.payload,
    (error: unknown) => {
      if (error instanceof errors.JWTExpired) throw new SdkError('Identity token expired', { code: 'IDENTITY_TOKEN_EXPIRED', cause: error })
      if (error instanceof errors.JOSEError && !(error instanceof errors.JWKSTimeout)) throw invalid(`Invalid identity token: ${error.message}`, error)
      throw new SdkError(`Could not fetch the provider's keys from ${jwksUrl}`, { code: 'JWKS_UNAVAILABLE', cause: error })
    },
  )
  const claims = claimsOf(payload)
  if (claims.environment !== options.environment) throw invalid(`Invalid identity token: issued for the ${claims.environment} environment`)
  if (options.nonce !== undefined && claims.nonce !== options.nonce) throw invalid('Invalid identity token: nonce mismatch')
  return claims
}

function settingsOf(options: VerifyIdentityTokenOptions): { issuer: string; jwksUrl: string; clockTolerance: number } {
  if (typeof options.appId !== 'string' || options.appId.length === 0) throw config('appId is required')
  if (!URL.canParse(options.providerUrl)) throw config('providerUrl must be a URL')
  const provider = new URL(options.providerUrl)
  const jwksUrl = options.jwksUrl ?? `${provider.origin}${jwksPath}`
  if (!URL.canParse(jwksUrl)) throw config('jwksUrl must be a URL')
  // Keys fetched over plain HTTP from another machine could be anyone's: every token would pass.
  if (!isPrivateChannel(jwksUrl)) throw config(`The JWKS is fetched over https only (or plain HTTP on this machine): ${new URL(jwksUrl).origin}`)
  const clockTolerance = options.clockToleranceSeconds ?? 5
  if (!Number.isFinite(clockTolerance) || clockTolerance < 0 || clockTolerance > 60) throw config('clockToleranceSeconds must be between 0 and 60')
  return { issuer: options.issuer ?? provider.origin, jwksUrl, clockTolerance }
}

const addressPattern = /^0x[0-9a-fA-F]{40}$/

/** The signed payload, typed; a token whose claims are not all of the expected shape is refused. */
function claimsOf(payload: Record<string, unknown>): IdentityClaims {
  const { iss, aud, sub, iat, exp, jti, environment, wallet_address, smart_accounts, sign_in_method, nonce } = payload
  const strings = [iss, aud, sub, jti, sign_in_method].every((value) => typeof value === 'string' && value.length > 0)
  if (!strings || typeof iat !== 'number' || typeof exp !== 'number') throw invalid('Invalid identity token: missing claims')
  if (environment !== 'production' && environment !== 'development') throw invalid('Invalid identity token: environment')
  if (typeof wallet_address !== 'string' || !addressPattern.test(wallet_address)) throw invalid('Invalid identity token: wallet_address')
  if (!Array.isArray(smart_accounts)) throw invalid('Invalid identity token: smart_accounts')
  const smartAccounts = smart_accounts.map((entry: unknown) => {
    const { chain_id, address } = (entry ?? {}) as Record<string, unknown>
    if (!Number.isSafeInteger(chain_id) || typeof address !== 'string' || !addressPattern.test(address)) throw invalid('Invalid identity token: smart_accounts')
    return { chainId: chain_id as number, address: address as `0x${string}` }
  })
  if (nonce !== undefined && typeof nonce !== 'string') throw invalid('Invalid identity token: nonce')
  return {
    issuer: iss as string,
    appId: aud as string,
    environment,
    userId: sub as string,
    walletAddress: wallet_address as `0x${string}`,
    smartAccounts,
    signInMethod: sign_in_method as string,
    ...(nonce === undefined ? {} : { nonce }),
    issuedAt: iat,
    expiresAt: exp,
    tokenId: jti as string,
  }
}

const invalid = (message: string, cause?: unknown) => new SdkError(message, { code: 'INVALID_IDENTITY_TOKEN', ...(cause === undefined ? {} : { cause }) })
const config = (message: string) => new SdkError(message, { code: 'INVALID_CONFIG' })
