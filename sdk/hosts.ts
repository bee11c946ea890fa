/**
 * The one table of per-environment service hosts. SPEC.md leaves the real host names
 * "not shown", so both environments point at the local sandbox server until they are known;
 * `createClient({ baseUrls })` overrides any entry.
 */
export type Env = 'sandbox' | 'production'

export type BaseUrls = {
  /** Wallet service, path version v2. */
  wallet: string
  /** Account-abstraction service, path version v1. */
  smartAccount: string
  /** Ramp service, path version v1. */
  ramp: string
  /** App config service (GET /apps/config under it). */
  appConfig: string
}

const local = 'http://localhost:8787'

export const hosts: { readonly [env in Env]: Readonly<BaseUrls> } = {
  sandbox: {
    wallet: `${local}/api/v2`,
    smartAccount: `${local}/api/v1`,
    ramp: `${local}/v1`,
    appConfig: `${local}/api/v1`,
  },
  production: {
    wallet: `${local}/api/v2`,
    smartAccount: `${local}/api/v1`,
    ramp: `${local}/v1`,
    appConfig: `${local}/api/v1`,
  },
}

export const defaultEnv: Env = 'sandbox'

export function resolveBaseUrls(env: Env = defaultEnv, overrides: Partial<BaseUrls> = {}): BaseUrls {
  const base = hosts[env]
  return {
    wallet: trimSlash(overrides.wallet ?? base.wallet),
    smartAccount: trimSlash(overrides.smartAccount ?? base.smartAccount),
    ramp: trimSlash(overrides.ramp ?? base.ramp),
    appConfig: trimSlash(overrides.appConfig ?? base.appConfig),
  }
}

/** The value of the `x-environment` header: the services call the sandbox data set 'development'. */
export function environmentHeader(env: Env = defaultEnv): 'production' | 'development' {
  return env === 'production' ? 'production' : 'development'
}

function trimSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url
}
