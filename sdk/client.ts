import { type AppConfigClient, createAppConfigClient } from './app-config.ts'
import { type ChainClient, createChainClient } from './chain.ts'
import { type BaseUrls, type ClientConfig, type Env, resolveContext, type TokenHolder } from './config.ts'
import { type Container, createContainer } from './container.ts'
import { type RampClient, createRampClient } from './ramp/client.ts'
import { type SmartAccountClient, createSmartAccountClient } from './smart-account/client.ts'
import { type AccountClient, createAccountClient } from './wallet/account.ts'
import { type AuthClient, createAuthClient } from './wallet/auth.ts'
import { type WalletClient, createWalletClient } from './wallet/client.ts'

export type Services = {
  auth: AuthClient
  account: AccountClient
  wallet: WalletClient
  smartAccount: SmartAccountClient
  ramp: RampClient
  appConfig: AppConfigClient
}

export type Client = Services & {
  env: Env
  baseUrls: BaseUrls
  tokens: TokenHolder
  /** A JSON-RPC client for one chain's RPC URLs, with fallback in order. */
  chain(rpcUrls: readonly string[]): ChainClient
  /** Looks a service up by name; an unknown name throws 'Service <name> not found in container'. */
  get: Container<Services>['get']
}

/**
 * Every service client on one configuration and one token holder. Pages that need only some
 * services import the create*Client functions instead, so the others stay out of the bundle.
 */
export function createClient(config: ClientConfig = {}): Client {
  const ctx = resolveContext(config)
  const container = createContainer<Services>({
    auth: () => createAuthClient(ctx),
    account: () => createAccountClient(ctx),
    wallet: () => createWalletClient(ctx),
    smartAccount: () => createSmartAccountClient(ctx),
    ramp: () => createRampClient(ctx),
    appConfig: () => createAppConfigClient(ctx),
  })
  return {
    env: ctx.env,
    baseUrls: ctx.baseUrls,
    tokens: ctx.tokens,
    auth: container.get('auth'),
    account: container.get('account'),
    wallet: container.get('wallet'),
    smartAccount: container.get('smartAccount'),
    ramp: container.get('ramp'),
    appConfig: container.get('appConfig'),
    chain: (rpcUrls) => createChainClient({ rpcUrls, fetch: ctx.fetch }),
    get: container.get,
  }
}
