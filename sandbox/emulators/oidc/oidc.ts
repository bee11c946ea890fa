import { createHash, randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { calculateJwkThumbprint, createLocalJWKSet, errors, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK } from 'jose'
import type { Store } from '../../infra/database/store.ts'
import { HttpError } from '../../http/exchange.ts'
import { insertCode, type OidcClaims, spendCode } from './queries.ts'

// The Google and Apple sign-in emulators: a small OpenID Connect provider per name, each with its
// own RS256 key kept in the data folder, a JWKS, authorisation codes and ID tokens. The auth
// endpoints verify those ID tokens exactly as they would verify Google's or Apple's.

export type OidcProvider = 'google' | 'apple'
export const oidcProviders: readonly OidcProvider[] = ['google', 'apple']
export const providerNames: Record<OidcProvider, string> = { google: 'Google', apple: 'Apple' }

/** The identity an ID token asserts. */
/** What the authorize page was asked for, once checked (routes.ts). */
export type AuthorizeRequest = { clientId: string; redirectUri: string; state: string; nonce: string; responseMode: 'query' | 'form_post' }

type Signer = { kid: string; privateKey: CryptoKey | Uint8Array; publicJwk: JWK }

export type Oidc = {
  issuer(provider: OidcProvider): string
  jwks(provider: OidcProvider): { keys: JWK[] }
  idToken(provider: OidcProvider, clientId: string, claims: OidcClaims, nonce?: string | null): Promise<string>
  /** The claims of a valid ID token for `clientId`, or a 401 naming what is wrong. */
  verify(provider: OidcProvider, token: string, clientId: string): Promise<OidcClaims>
}

export async function createOidc(dataDir: string, origin: () => string): Promise<Oidc> {
  const signers = {} as Record<OidcProvider, Signer>
  for (const provider of oidcProviders) signers[provider] = await loadSigner(join(dataDir, `oidc-${provider}.jwk.json`))
  const issuer = (provider: OidcProvider) => `${origin()}/oauth/${provider}`
  const jwks = (provider: OidcProvider) => ({ keys: [signers[provider].publicJwk] })
  return {
    issuer,
    jwks,
    async idToken(provider, clientId, claims, nonce) {
      const signer = signers[provider]
      const now = Math.floor(Date.now() / 1000)
      return new SignJWT({ email: claims.email, email_verified: true, name: claims.name, ...(nonce ? { nonce } : {}), auth_time: now })
        .setProtectedHeader({ alg: 'RS256', kid: signer.kid, typ: 'JWT' })
        .setIssuer(issuer(provider))
        .setAudience(clientId)
        .setSubject(claims.sub)
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(signer.privateKey)
    },
    async verify(provider, token, clientId) {
      const name = providerNames[provider]
      try {
        const { payload } = await jwtVerify(token, createLocalJWKSet(jwks(provider)), {
          algorithms: ['RS256'],
          issuer: issuer(provider),
          audience: clientId,
          requiredClaims: ['sub', 'iat', 'exp'],
        })
        if (typeof payload.email !== 'string' || payload.email_verified !== true) throw new HttpError(401, `${name} ID token carries no verified e-mail`)
        return { sub: String(payload.sub), email: payload.email.toLowerCase(), name: typeof payload.name === 'string' ? payload.name : '' }
      } catch (error) {
        if (error instanceof HttpError) throw error
        if (error instanceof errors.JWTExpired) throw new HttpError(401, `${name} ID token expired`)
        if (error instanceof errors.JWTClaimValidationFailed) throw new HttpError(401, `${name} ID token rejected: ${error.claim} mismatch`)
        throw new HttpError(401, `Invalid ${name} ID token`)
      }
    },
  }
}

async function loadSigner(path: string): Promise<Signer> {
  let privateJwk: JWK
  try {
    privateJwk = JSON.parse(readFileSync(path, 'utf8')) as JWK
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    const pair = await generateKeyPair('RS256', { modulusLength: 2048, extractable: true })
    privateJwk = await exportJWK(pair.privateKey)
    writeFileSync(path, JSON.stringify(privateJwk), { mode: 0o600, flag: 'wx' })
  }
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicPart } = privateJwk
  const kid = await calculateJwkThumbprint(publicPart)
  return { kid, privateKey: await importJWK(privateJwk, 'RS256'), publicJwk: { ...publicPart, kid, alg: 'RS256', use: 'sig' } }
}

/** A stable subject per provider and e-mail, shaped like the real ones (Google: digits; Apple: 000123.hex.0123). */
export function subjectFor(provider: OidcProvider, email: string): string {
  const digest = createHash('sha256').update(`${provider}:${email}`).digest('hex')
  if (provider === 'google')
    return `1${BigInt(`0x${digest.slice(0, 16)}`)
      .toString()
      .padStart(20, '0')}`
  return `000${digest.slice(0, 3).replace(/\D/g, '7')}.${digest.slice(3, 35)}.${digest.slice(35, 39)}`
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/** The provider's OpenID discovery document (/.well-known/openid-configuration). */
export const discoveryDocument = (issuer: string) => ({
  issuer,
  authorization_endpoint: `${issuer}/authorize`,
  token_endpoint: `${issuer}/token`,
  jwks_uri: `${issuer}/jwks`,
  response_types_supported: ['code'],
  response_modes_supported: ['query', 'form_post'],
  subject_types_supported: ['public'],
  id_token_signing_alg_values_supported: ['RS256'],
  scopes_supported: ['openid', 'email', 'profile', 'name'],
  grant_types_supported: ['authorization_code'],
  claims_supported: ['iss', 'aud', 'sub', 'iat', 'exp', 'email', 'email_verified', 'name', 'nonce'],
})

export type CodeGrant = { provider: OidcProvider; clientId: string; redirectUri: string; nonce: string | null; claims: OidcClaims }

/** A single-use authorisation code, valid 5 minutes, stored only as a hash. */
export async function issueCode(store: Store, grant: CodeGrant): Promise<string> {
  const code = randomBytes(32).toString('base64url')
  await insertCode(store, { hash: sha256(code), ...grant, expiresAt: new Date(Date.now() + 5 * 60_000).toISOString() })
  return code
}

/** Spends a code issued to `clientId` by `provider`; `redirectUri`, when given, must be the one it was issued for. */
export async function redeemCode(store: Store, provider: OidcProvider, code: string, clientId: string, redirectUri?: string): Promise<CodeGrant> {
  const row = await spendCode(store, sha256(code), provider)
  if (!row || row.client_id !== clientId || (redirectUri !== undefined && row.redirect_uri !== redirectUri))
    throw new HttpError(400, `Invalid or expired ${providerNames[provider]} authorization code`)
  return { provider, clientId, redirectUri: row.redirect_uri, nonce: row.nonce, claims: row.claims }
}
