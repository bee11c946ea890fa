import type { Context } from '../config.ts'
import { SdkError, messages } from '../errors.ts'
import type { Method } from '../http.ts'
import { fetchOrganization } from '../wallet/account.ts'

/**
 * The credential headers of one ramp request: an RSA signature (X-CLIENT-ID, X-TIMESTAMP, X-SIGNATURE; signing/rsa.ts)
 * when a client id and private key are configured, otherwise x-client-secret, fetched from the
 * organization once when neither the configuration nor the holder has one.
 */
export async function rampAuthHeaders(ctx: Context, method: Method, body: unknown): Promise<Record<string, string>> {
  const headers: Record<string, string> = {}
  const { rampAccessToken } = ctx.tokens.get()
  if (rampAccessToken) headers.authorization = `Bearer ${rampAccessToken}`

  const rampable = ctx.config.rampable
  if (rampable?.privateKey) {
    // Back ends only (a private key): the signing code loads then, never in a browser that has none.
    const { signRampRequest } = await import('../signing/rsa.ts')
    const { timestamp, signature } = await signRampRequest({
      clientId: rampable.clientId,
      privateKey: rampable.privateKey,
      method,
      body,
    })
    return { ...headers, 'x-client-id': rampable.clientId, 'x-timestamp': timestamp, 'x-signature': signature }
  }
  return { ...headers, 'x-client-secret': await rampClientSecret(ctx) }
}

const pending = new WeakMap<Context, Promise<string>>()

async function rampClientSecret(ctx: Context): Promise<string> {
  const known = ctx.config.rampableClientSecret ?? ctx.tokens.get().rampClientSecret
  if (known) return known
  let promise = pending.get(ctx)
  if (!promise) {
    promise = fetchOrganization(ctx).then((organization) => {
      if (!organization?.isRampableEnabled) throw new SdkError(messages.rampableNotEnabled, { code: 'RAMPABLE_NOT_ENABLED', details: organization })
      if (!organization.rampableClientSecret) throw new Error('The organization has no ramp client secret')
      ctx.tokens.set({ rampClientSecret: organization.rampableClientSecret })
      return organization.rampableClientSecret
    })
    pending.set(ctx, promise)
    promise.then(
      () => pending.delete(ctx),
      () => pending.delete(ctx),
    )
  }
  return promise
}
