import type { Context } from 'hono'
import type { SandboxEnv } from '../../context.ts'
import { bearerToken, verifyToken, type TokenClaims, type TokenKind } from './jwt.ts'

/** The claims of the request's `Authorization: Bearer` token, which must be of `kind` and for this app. */
export function authorize(c: Context<SandboxEnv>, jwtKey: Uint8Array, kind: TokenKind): Promise<TokenClaims> {
  const app = c.get('app')
  return verifyToken(jwtKey, bearerToken(c.req.header('authorization')), { kind, appId: app.appId, environment: app.environment })
}
