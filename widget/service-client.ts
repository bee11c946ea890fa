import type { ClientConfig } from '../sdk/config.ts'
import { resolveContext, type Context } from '../sdk/config.ts'
import type { Client } from '../sdk/index.ts'
import { createAppConfigClient } from '../sdk/app-config.ts'
import { createWalletClient } from '../sdk/wallet/client.ts'
import { lazyModule } from './lazy-module.ts'

/** The services the frame uses, on one configuration and one token holder (the session owner). */
export type WidgetClient = Pick<Client, 'env' | 'baseUrls' | 'tokens' | 'auth' | 'account' | 'wallet' | 'appConfig'> & {
  /** The configuration and token holder the services share: lazy pages build their services on it (the smart-account and ramp clients). */
  context?: Context
}

/**
 * Built from the sdk's service constructors rather than `createClient`, so that what the frame does
 * not need before its first page (the chain client and viem's transports, the smart-account and
 * ramp clients, the sign-in and account calls) stays out of its first chunk (the 100 KB budget,
 * scripts/bundles.ts).
 */
export function createWidgetClient(config: ClientConfig): WidgetClient {
  const ctx = resolveContext(config)
  return {
    env: ctx.env,
    baseUrls: ctx.baseUrls,
    tokens: ctx.tokens,
    context: ctx,
    auth: lazyClient(
      async () => (await authModule.get()).createAuthClient(ctx),
      [
        'loginOtp',
        'verifyOtp',
        'google',
        'googleCode',
        'apple',
        'telegram',
        'login',
        'register',
        'loginOrRegister',
        'loginWhatsapp',
        'verifyWhatsapp',
        'handoff',
        'adopt',
      ],
    ),
    account: lazyClient(
      async () => (await accountModule.get()).createAccountClient(ctx),
      ['create', 'recover', 'createRampable', 'organization', 'refresh', 'refreshRampable'],
    ),
    wallet: createWalletClient(ctx),
    appConfig: createAppConfigClient(ctx),
  }
}

const authModule = lazyModule(() => import('../sdk/wallet/auth.ts'))
const accountModule = lazyModule(() => import('../sdk/wallet/account.ts'))

/**
 * A service client whose code loads with its first call: nothing the frame shows before a click
 * needs the sign-in or account calls (a refresh after a failure is the core's one use, rare), so
 * they stay out of its first route. Every call is async, so the load is one more await. `names`
 * lists each call of the client (the type holds it to exactly those), and nothing else is there.
 */
function lazyClient<C extends Record<string, (...args: never[]) => Promise<unknown>>>(make: () => Promise<C>, names: readonly (keyof C & string)[]): C {
  let client: Promise<C> | undefined
  // Calls made while the module loads share one client; a load that failed is tried again next call.
  const load = () =>
    (client ??= make().catch((error: unknown) => {
      client = undefined
      throw error
    }))
  const out = {} as Record<string, unknown>
  for (const name of names) out[name] = async (...args: unknown[]) => ((await load())[name] as (...a: unknown[]) => Promise<unknown>)(...args)
  return out as C
}
