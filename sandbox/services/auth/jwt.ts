import { decodeJwt, errors, jwtVerify, SignJWT } from 'jose'
import type { Environment } from '../app-config/apps.ts'
import { HttpError } from '../../http/exchange.ts'

// Kinds of JWT, all HS256 with the data folder's key. `typ` keeps one kind from standing in for
// another; `aud` binds a token to its app and environment. `permission` is the credential inside
// the permission-accept page's link: it names the session that asked (`fam`) and the grant (`jti`);
// `ramp` is the ramp access token (rampableAccessToken).
export type TokenKind = 'access' | 'wallet' | 'refresh' | 'permission' | 'ramp'

export type TokenClaims = {
  kind: TokenKind
  userId: string
  appId: string
  environment: Environment
  /** Refresh tokens: the row id; permission tokens: the grant's own id, which its step-up proof is bound to. */
  tokenId?: string
  /** The session (refresh family) of a refresh, wallet, access or permission token; see sessions.ts. */
  familyId?: string
}

export const tokenLifetimes = { access: 15 * 60, wallet: 15 * 60, refresh: 7 * 24 * 60 * 60, permission: 60 * 60, ramp: 60 * 60 } as const

const issuer = 'wallet-kit-sandbox'
const audience = (appId: string, environment: Environment) => `${appId}:${environment}`

export async function signToken(key: Uint8Array, claims: TokenClaims, expiresAt?: Date): Promise<string> {
  const jwt = new SignJWT({ typ: claims.kind, ...(claims.familyId ? { fam: claims.familyId } : {}) })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(issuer)
    .setAudience(audience(claims.appId, claims.environment))
    .setSubject(claims.userId)
    .setIssuedAt()
  if (claims.tokenId) jwt.setJti(claims.tokenId)
  jwt.setExpirationTime(expiresAt ?? `${tokenLifetimes[claims.kind]}s`)
  return jwt.sign(key)
}

/**
 * Tokens already verified, per key: the same wallet token comes with every call of a session (and is
 * checked by the app guard and by routes outside it), and an HMAC check through WebCrypto
 * costs more than the rest of a signing call's bookkeeping. An entry is the outcome of one full check
 * for one expected kind, app and environment; it is used only while the token's `exp` is still ahead
 * (an expired token goes through jwtVerify again and gets its 401). Only genuine tokens are kept.
 * Revocation is not a property of the token: the app guard checks it on every call (app-guard.ts).
 */
const verifiedTokens = new WeakMap<Uint8Array, Map<string, { claims: TokenClaims; exp: number }>>()
const maxVerifiedTokens = 10_000

/** The claims of a valid token of the given kind for this app, or a 401. */
export async function verifyToken(
  key: Uint8Array,
  token: string,
  expected: { kind: TokenKind; appId: string; environment: Environment; clockToleranceSeconds?: number },
): Promise<TokenClaims> {
  let cache = verifiedTokens.get(key)
  if (!cache) {
    cache = new Map()
    verifiedTokens.set(key, cache)
  }
  const tolerance = expected.clockToleranceSeconds ?? 0
  const cacheKey = `${expected.kind}\u0000${expected.appId}\u0000${expected.environment}\u0000${tolerance}\u0000${token}`
  const hit = cache.get(cacheKey)
  // jose's rule: expired once exp <= now - tolerance, in whole seconds.
  if (hit && hit.exp > Math.floor(Date.now() / 1000) - tolerance) return hit.claims
  const claims = await verifyFully(key, token, expected)
  cache.delete(cacheKey)
  if (claims.exp !== undefined) {
    cache.set(cacheKey, { claims: claims.claims, exp: claims.exp })
    if (cache.size > maxVerifiedTokens) cache.delete(cache.keys().next().value as string)
  }
  return claims.claims
}

async function verifyFully(
  key: Uint8Array,
  token: string,
  expected: { kind: TokenKind; appId: string; environment: Environment; clockToleranceSeconds?: number },
): Promise<{ claims: TokenClaims; exp: number | undefined }> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer,
      audience: audience(expected.appId, expected.environment),
      ...(expected.clockToleranceSeconds ? { clockTolerance: expected.clockToleranceSeconds } : {}),
    })
    if (payload.typ !== expected.kind || typeof payload.sub !== 'string') throw new HttpError(401, 'Invalid token')
    const claims: TokenClaims = {
      kind: expected.kind,
      userId: payload.sub,
      appId: expected.appId,
      environment: expected.environment,
      ...(typeof payload.jti === 'string' ? { tokenId: payload.jti } : {}),
      ...(typeof payload.fam === 'string' ? { familyId: payload.fam } : {}),
    }
    return { claims: Object.freeze(claims), exp: typeof payload.exp === 'number' ? payload.exp : undefined }
  } catch (error) {
    if (error instanceof HttpError) throw error
    if (error instanceof errors.JWTExpired) throw new HttpError(401, 'Token expired')
    throw new HttpError(401, 'Invalid token')
  }
}

/** The kind a token claims to be, unverified: only to pick what to verify it as. */
export function tokenKindOf(token: string): TokenKind | undefined {
  try {
    const typ = decodeJwt(token).typ
    return typeof typ === 'string' && typ in tokenLifetimes ? (typ as TokenKind) : undefined
  } catch {
    return undefined
  }
}

export function bearerToken(header: string | undefined): string {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '')
  if (!match?.[1]) throw new HttpError(401, 'Missing bearer token')
  return match[1]
}
