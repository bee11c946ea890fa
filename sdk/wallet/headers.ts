import type { CallOptions, Context } from '../config.ts'
import { environmentHeader } from '../hosts.ts'

/**
 * Headers of every wallet-service call: x-app-id when set, the environment,
 * the client secret only when configured (server back ends), a bearer token where one is needed.
 */
export function walletHeaders(ctx: Context, bearer: string | undefined, options: CallOptions = {}): Record<string, string | undefined> {
  return {
    'x-app-id': ctx.config.appId,
    'x-environment': environmentHeader(ctx.env),
    'x-client-secret': ctx.config.clientSecret,
    authorization: bearer ? `Bearer ${bearer}` : undefined,
    ...options.headers,
  }
}
