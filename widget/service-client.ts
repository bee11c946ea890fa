import type { ClientConfig } from '../sdk/config.ts'
import { resolveContext, type Context } from '../sdk/config.ts'
import type { Client } from '../sdk/index.ts'
import { createAppConfigClient } from '../sdk/app-config.ts'
import { createAccountClient } from '../sdk/wallet/account.ts'
import type { AuthClient } from '../sdk/wallet/auth.ts'
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
 * ramp clients) stays out of its first chunk (the 100 KB budget, scripts/bundles.ts).
 */
export function createWidgetClient(config: ClientConfig): WidgetClient {
  const ctx = resolveContext(config)
  return {
    env: ctx.env,
    baseUrls: ctx.baseUrls,
    tokens: ctx.tokens,
    context: ctx,
    auth: lazyAuth(ctx),
    account: createAccountClient(ctx),
    wallet: createWalletClient(ctx),
    appConfig: createAppConfigClient(ctx),
  }
}

const authModule = lazyModule(() => import('../sdk/wallet/auth.ts'))

/**
 * The sign-in calls, loaded with the first one: nothing the frame shows before a click needs them,
 * so they stay out of its first route. Every call is async, so the load is one more await. The
 * wrapper lists each call of the client (the type holds it to exactly those), and nothing else.
 */
function lazyAuth(ctx: Context): AuthClient {
  let client: AuthClient | undefined
  // Calls made while the module loads share one client: it is made after the await, once.
  const load = async () => {
    const module = await authModule.get()
    client ??= module.createAuthClient(ctx)
    return client
  }
  // Each call of the client has its own type; this one body forwards any of them.
  const call = <K extends keyof AuthClient>(name: K): AuthClient[K] =>
    (async (...args: unknown[]) => ((await load())[name] as (...a: unknown[]) => Promise<unknown>)(...args)) as AuthClient[K]
  return {
    loginOtp: call('loginOtp'),
    verifyOtp: call('verifyOtp'),
    google: call('google'),
    googleCode: call('googleCode'),
    apple: call('apple'),
    telegram: call('telegram'),
    login: call('login'),
    register: call('register'),
    loginOrRegister: call('loginOrRegister'),
    loginWhatsapp: call('loginWhatsapp'),
    verifyWhatsapp: call('verifyWhatsapp'),
    handoff: call('handoff'),
    adopt: call('adopt'),
  }
}
