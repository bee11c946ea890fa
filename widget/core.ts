import { offeredChains } from '../bridge/chains.ts'
import { ErrorCode } from '../bridge/error-classes.ts'
import { createAppConfigClient } from '../sdk/app-config.ts'
import type { AppConfig, ChainClient } from '../sdk/index.ts'
import { activeAccount } from './accounts/active.ts'
import { createConfirmations } from './confirmation.ts'
import { deployment } from './deployment.ts'
import { logoutTimeoutMs, walletConnectRestoreMs } from './constants.ts'
import { lazyModule } from './lazy-module.ts'
import type { FrameParams } from './params.ts'
import type { RpcContext } from './rpc/types.ts'
import { createWidgetClient, type WidgetClient } from './service-client.ts'
import { openSessionStore } from './session.ts'
import { configStoredRecently, readConfig } from './config-read.ts'
import type { EarlyStart } from './early.ts'
import { createSessionOwner, type SessionOwner } from './session-owner.ts'
import type { HostPort } from './host-port.ts'
import { createWallet } from './wallet.ts'
import { createWalletConnect, type WalletConnect } from './walletconnect/index.ts'

const chainModule = lazyModule(() => import('../sdk/chain.ts'))

/**
 * What the frame and the secure window both start with: the session store (IndexedDB, else this
 * page's memory: never a hang), its owner, the service client on it, and the app config, read once
 * and kept for the page's life (no retry: a frame without its config shows nothing rather than guess).
 */
export async function openServices(params: FrameParams, early: EarlyStart, inPage: AppConfig | undefined) {
  const { appId, env } = params
  // The page's own copy (`inPage`) when the server wrote one in: nothing to read, fetch or store.
  // Else a first load (no fresh mark) asks the network for the app config at once, beside the storage probe.
  const fetched = inPage || configStoredRecently(params) ? undefined : createAppConfigClient({ appId, env, baseUrls: deployment() }).get()
  fetched?.catch(() => {})
  const { store, persistent } = await openSessionStore(appId, env, { probed: early.probed })
  let chainId = () => 0
  const owner = createSessionOwner({ appId: params.appId, env: params.env, store, persistent, chainId: () => chainId() })
  // Where the services live is the deployment's to say (deployment.ts), never the host page's.
  const { wallet, smartAccount, ramp, appConfig } = deployment()
  // The session owner is the client's token holder: tokens are written in one place.
  const client = createWidgetClient({
    appId: params.appId,
    env: params.env,
    baseUrls: { wallet, smartAccount, ramp, appConfig },
    tokens: owner.tokens,
    coordinateRefresh: owner.coordinateRefresh,
  })
  let config: AppConfig
  try {
    config = inPage ?? (await readConfig({ store, persistent, fetched, fetch: () => client.appConfig.get(), params }))
  } catch (err) {
    console.error(`wallet-kit: no app config for "${params.appId}":`, err)
    return null
  }
  return { owner, client, config, walletConnectTopic: early.walletConnectTopic, setChain: (fn: () => number) => (chainId = fn) }
}

/**
 * Why the frame turns the page down, when it names chains and the app offers none of them: a clear
 * error at the handshake, not a wallet quietly on a chain nobody offered.
 */
export const chainRefusal = (
  appId: string,
  named: readonly number[],
  app: readonly { chainId: number }[],
  offered: readonly unknown[] = offeredChains(app, named),
) =>
  offered.length === 0
    ? {
        code: ErrorCode.disconnected,
        message: `App "${appId}" offers none of this page's chains (${named.join(', ')}); it offers ${app.map((c) => c.chainId).join(', ')}`,
      }
    : undefined

/** The widget's parts, wired: the wallet state machine on the session owner, confirmations, chain RPC. */
export async function start(deps: {
  params: FrameParams
  hostOrigin: string
  client: WidgetClient
  config: AppConfig
  /** The app's chains this page may use (`offeredChains`), worked out once by the caller. */
  chains: AppConfig['chains']
  owner: SessionOwner
  host: HostPort
  setChain: (chainId: () => number) => void
  /** Pairs and holds WalletConnect wallets (the frame; the secure window does not), from the topic stored before. */
  walletConnect?: { topic?: Promise<unknown> | undefined }
}): Promise<RpcContext & { walletConnect: WalletConnect | null }> {
  const { params, client, config, owner, chains } = deps
  const wallet = createWallet({
    appId: params.appId,
    env: params.env,
    hostOrigin: deps.hostOrigin,
    chains,
    owner,
    host: deps.host,
    // Disconnect revokes the tokens on the service; a service that does not answer cannot keep the
    // user connected (the HTTP client has no timeout of its own).
    logout: () => client.wallet.logout({}, { signal: AbortSignal.timeout(logoutTimeoutMs) }),
  })
  deps.setChain(wallet.chainId)
  // The buy screen's ramp key is publishable: it can read references and quotes only, never create orders.
  if (config.rampableClientSecret) client.tokens.set({ rampClientSecret: config.rampableClientSecret })
  await wallet.restore()

  // One client per chain, with viem's transports loaded on the first read (not with the frame).
  const rpcClients = new Map<number, ChainClient>()
  const rpc = (chainId: number): ChainClient => ({
    async request(args, options) {
      // A module that failed to load is asked for again next time (lazy-module.ts).
      const { createChainClient } = await chainModule.get()
      let c = rpcClients.get(chainId)
      if (!c) {
        c = createChainClient({ rpcUrls: wallet.chain(chainId)?.rpcUrls ?? [] })
        rpcClients.set(chainId, c)
      }
      return c.request(args, options)
    },
  })
  const walletConnect = deps.walletConnect
    ? createWalletConnect({ wallet, config: config.walletConnect, appName: config.name, persistent: owner.persistent, rpc })
    : null
  // A paired wallet from before the reload: its code loads only when there is one. A relay that
  // does not answer must not hold the frame up; the session comes back once it does.
  if (walletConnect) await restoreWithin(walletConnect.restore(deps.walletConnect?.topic), walletConnectRestoreMs)

  const account = activeAccount(wallet, client, walletConnect ?? undefined)
  const confirmations = createConfirmations(wallet, {
    // Who signs now; an account whose chain went away is caught by the chain check next to it.
    signer: account.address,
    // After a signing failure the token is refreshed (a stale token is the likeliest cause).
    afterFailure: async () => {
      const refreshToken = client.tokens.get().refreshToken
      if (refreshToken) await client.account.refresh({ refreshToken })
    },
  })
  return { wallet, client, confirmations, account, rpc, walletConnect }
}

/** Waits for `work` at most `ms`; a failure is told in the console, never thrown. */
async function restoreWithin(work: Promise<void>, ms: number) {
  const failed = work.catch((err: unknown) => console.warn('wallet-kit: the WalletConnect session could not be restored:', err))
  await Promise.race([failed, new Promise((resolve) => setTimeout(resolve, ms))])
}
