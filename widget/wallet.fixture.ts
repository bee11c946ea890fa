import type { HostEvent } from '../bridge/index.ts'
import type { ChainConfig } from '../sdk/index.ts'
import { createSessionStore, sessionLifetimeMs, type Session } from './session.ts'
import { memoryEntries } from './storage.ts'
import { createSessionOwner } from './session-owner.ts'
import { createStore, type Store } from './store.ts'
import { initialUi, type UiState } from './ui-state.ts'
import { createWallet, type Wallet } from './wallet.ts'

// Keyed by the wallet's read-only face, which a copy of the wallet object keeps.
const scenes = new WeakMap<object, Store<UiState>>()

/** createWallet for tests: the same wallet, its state store kept for `setUi`. */
export function createTestWallet(deps: Omit<Parameters<typeof createWallet>[0], 'store'>): Wallet {
  const store = createStore<UiState>({ ...initialUi, chainId: deps.chains[0]?.chainId ?? 31337 })
  const wallet = createWallet({ ...deps, store })
  scenes.set(wallet.ui, store)
  return wallet
}

/** Sets a scene directly, past the owners of each part of the state (which the widget's own code cannot do). */
export function setUi(wallet: Wallet, patch: Partial<UiState> | ((s: UiState) => Partial<UiState>)): void {
  const store = scenes.get(wallet.ui)
  if (!store) throw new Error('setUi: not a wallet from createTestWallet or testWallet')
  store.set(patch)
}

/** A BroadcastChannel stand-in: what this tab announces, and a way to deliver another tab's message. */
function testChannel() {
  const sent: unknown[] = []
  const channel = { onmessage: null as ((e: MessageEvent) => void) | null, postMessage: (m: unknown) => void sent.push(m), close() {} }
  return { channel: channel as unknown as BroadcastChannel, sent, deliver: (data: unknown) => channel.onmessage?.({ data } as MessageEvent) }
}

/** A sandbox chain as app config describes it (31337 is 'Local Chain 1', network 'local-1'). */
export const localChain = (chainId: number): ChainConfig => ({
  chainId,
  name: `Local Chain ${chainId - 31336}`,
  network: `local-${chainId - 31336}`,
  rpcUrls: [],
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  testnet: true,
})

/**
 * A wallet state machine for unit tests on the real session owner, its store in memory, another
 * tab played through its channel, host calls recorded.
 */
export function testWallet(
  options: {
    session?: Omit<Session, 'expiresAt'>
    account?: unknown
    chains?: readonly number[]
    logout?: (tokens: { walletToken?: string; refreshToken?: string }) => Promise<void>
  } = {},
) {
  const key = 'session:demo:sandbox'
  const entries = memoryEntries({
    ...(options.session && { [key]: { ...options.session, expiresAt: Date.now() + sessionLifetimeMs } }),
    ...(options.account !== undefined && { account: { 'demo:sandbox': options.account } }),
  })
  const store = createSessionStore('demo', 'sandbox', entries)
  const { channel, sent, deliver } = testChannel()
  const owner = createSessionOwner({ appId: 'demo', env: 'sandbox', store, persistent: true, channel, locks: undefined, chainId: () => wallet.chainId() })
  const events: [HostEvent, unknown][] = []
  const visible: boolean[] = []
  // The sandbox's two chains, or the ones a host narrowed them to (`chains`).
  const chains: ChainConfig[] = (options.chains ?? [31337, 31338]).map(localChain)
  const wallet = createTestWallet({
    appId: 'demo',
    env: 'sandbox',
    hostOrigin: 'http://127.0.0.1:5173',
    chains,
    owner,
    // As the sdk's logout does: the service is asked with the held tokens, then the holder forgets them.
    ...(options.logout && {
      logout: async () => {
        const { walletToken, refreshToken } = owner.tokens.get()
        try {
          await options.logout!({ ...(walletToken && { walletToken }), ...(refreshToken && { refreshToken }) })
        } finally {
          owner.tokens.clear(['walletToken', 'refreshToken', 'address', 'rampAccessToken'])
        }
      },
    }),
    host: {
      setVisible: (v) => visible.push(v),
      emit: (e, p) => events.push([e, p]),
      connectExternal: async () => ({ error: { code: 4200, message: 'none' } }),
      openUrl: () => {},
    },
  })
  /** A login as the sdk completes one: tokens into the holder, then the widget waits for the write. */
  const logIn = async (login: { token: string; refreshToken: string; address: `0x${string}` } = alice) => {
    owner.tokens.set({ walletToken: login.token, refreshToken: login.refreshToken, address: login.address })
    return wallet.loggedIn()
  }
  /** Another tab of this app wrote (or cleared) the session. */
  const remote = (session: Session | null) => deliver({ session })
  return {
    wallet,
    owner,
    store,
    events,
    visible,
    logIn,
    remote,
    broadcasts: sent,
    stored: () => (entries.peek(key) ?? null) as Session | null,
    account: () => (entries.peek('account') as Record<string, unknown> | undefined)?.['demo:sandbox'],
  }
}

export const alice = {
  token: 'wallet-token',
  refreshToken: 'refresh-token',
  address: '0x00000000000000000000000000000000000A11cE' as const,
  chainId: 31337,
  appId: 'demo',
  env: 'sandbox' as const,
  /** Connected to the page the test wallet serves (its hostOrigin). */
  sites: ['http://127.0.0.1:5173'],
}
