import type { App } from './services/app-config/apps.ts'
import type { RunningChain } from './infra/anvil/local-chains.ts'
import type { Store } from './infra/database/store.ts'
import type { Networks } from './services/chain/networks.ts'
import type { Faucet } from './services/chain/faucet.ts'
import type { Keys } from './infra/keys.ts'
import type { Oidc } from './emulators/oidc/oidc.ts'
import type { Limiter } from './http/rate-limit.ts'
import type { PopupChannels } from './services/popup/channel.ts'
import type { ReplayGuard } from './http/request-signatures.ts'
import type { SigningAccounts } from './infra/keys.ts'
import type { Relay } from './services/walletconnect/relay.ts'
import type { SmartAccounts } from './services/smart-account/service.ts'
import type { TokenClaims } from './services/auth/jwt.ts'

/**
 * What the route modules need, handed in by createSandbox: everything that lives as long as one
 * sandbox is here, never in a module (no globals, so tests can run several sandboxes).
 */
export type Deps = {
  store: Store
  keys: Keys
  chains: readonly RunningChain[]
  /** viem clients per chain, looked up by the wallet API's network slug. */
  networks: Networks
  faucet: Faucet
  /** The Google and Apple sign-in emulators' keys and tokens. */
  oidc: Oidc
  limiter: Limiter
  /** The wallet frames' channels to their secure windows (services/popup/channel.ts). */
  channels: PopupChannels
  /** Signed requests already used (smart-account HMAC, ramp RSA). */
  replays: ReplayGuard
  /** Wallets' decrypted signing accounts, recently used ones kept. */
  signingAccounts: SigningAccounts
  /** The WalletConnect relay (services/walletconnect/): its sockets, subscriptions and stored messages. */
  relay: Relay
  /** ERC-4337: a bundler and a verifying paymaster per chain (services/smart-account/). */
  smartAccounts: SmartAccounts
  /** The public origin (http://localhost:<port>), known only once the server listens. */
  origin(): string
  /** Origins that are the sandbox itself (localhost, 127.0.0.1, [::1] on its port). */
  ownOrigins(): readonly string[]
  distDir: string
  /**
   * Tests only (SandboxOptions.clientAddressOf): the address a request counts as coming from, given
   * its socket's. Everything on loopback is one client (http/rate-limit.ts ipKey), so a test that
   * needs a second machine maps a loopback source (127.0.0.2) to another address.
   */
  clientAddressOf?: (socketAddress: string) => string
}

/**
 * Hono's environment: `app` is set by the app guard for /api routes, and `bearer` by the wallet
 * service's guard when the request carries a genuine wallet or access token of an open session
 * (services/auth/app-guard.ts). `clientAddress` only where a test maps addresses
 * (Deps.clientAddressOf; http/rate-limit.ts clientIp).
 */
export type SandboxEnv = { Variables: { app: App; bearer?: TokenClaims; clientAddress: string } }
