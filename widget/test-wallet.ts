import type { HostEvent } from '../bridge/index.ts'
import type { ChainConfig } from '../sdk/index.ts'
import { sessionLifetimeMs, type Session, type SessionStore } from './session.ts'
import { createWallet } from './wallet.ts'

/** A wallet state machine for unit tests: sessions kept in memory, host calls recorded. */
export function testWallet(
  options: { session?: Omit<Session, 'expiresAt'>; account?: unknown; chains?: readonly number[]; logout?: (session: Session) => Promise<void> } = {},
) {
  let stored: Session | null = options.session ? { ...options.session, expiresAt: Date.now() + sessionLifetimeMs } : null
  let account: unknown = options.account
  const sessions: SessionStore = {
    loadAccount: async () => account,
    saveAccount: async (a) => {
      account = a
    },
    load: async () => stored,
    save: async (s) => (stored = { ...s, expiresAt: Date.now() + sessionLifetimeMs }),
    patch: async (address, fields) => (stored && stored.address === address ? (stored = { ...stored, ...fields }) : null),
    clear: async () => {
      stored = null
      account = undefined
    },
  }
  const events: [HostEvent, unknown][] = []
  const visible: boolean[] = []
  // The sandbox's two chains, or the ones a host narrowed them to (`chains`).
  const chains: ChainConfig[] = (options.chains ?? [31337, 31338]).map((chainId) => ({
    chainId,
    name: `Local Chain ${chainId - 31336}`,
    network: `local-${chainId - 31336}`,
    rpcUrls: [],
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    testnet: true,
  }))
  const wallet = createWallet({
    appId: 'demo',
    env: 'sandbox',
    hostOrigin: 'http://127.0.0.1:5173',
    chains,
    sessions,
    ...(options.logout && { logout: options.logout }),
    host: {
      setVisible: (v) => visible.push(v),
      emit: (e, p) => events.push([e, p]),
      connectExternal: async () => ({ error: { code: 4200, message: 'none' } }),
      openUrl: () => {},
    },
  })
  return { wallet, sessions, events, visible, stored: () => stored, account: () => account }
}

export const alice = {
  token: 'wallet-token',
  refreshToken: 'refresh-token',
  address: '0x00000000000000000000000000000000000A11cE' as const,
  chainId: 31337,
  appId: 'demo',
  env: 'sandbox' as const,
}
