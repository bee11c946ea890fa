import type { ReactNode } from 'react'
import { vi } from 'vitest'
import type { AppConfig, SmartAccount } from '../../../sdk/index.ts'
import { alice, setUi } from '../../wallet.fixture.ts'
import { renderProfileWidget } from '../profile.fixture.tsx'
import type { SmartAccountService } from './service.ts'

/** The hash the fake service asks the owner to sign (32 bytes that are not text). */
export const deployHash = `0x${'9f'.repeat(32)}` as const
export const ownerSignature = `0x${'51'.repeat(65)}` as const

export const account = (chainId: number, status: string, network = `net-${chainId}`): SmartAccount => ({
  id: `acc-${chainId}`,
  chainId,
  network,
  status,
  aaAddress: `0x${chainId.toString(16).padStart(40, 'a')}`,
})

/**
 * A scripted account-abstraction service, as the sandbox answers it: create is idempotent and
 * answers the current statuses; submit turns the account 'deploying'; `mine()` deploys it.
 * `steps` records every call in order; `holdSubmit` keeps submit waiting.
 */
export function fakeService(initial: SmartAccount[]) {
  let accounts = initial.map((a) => ({ ...a }))
  const steps: string[] = []
  const set = (accountId: string, status: string) => (accounts = accounts.map((a) => (a.id === accountId ? { ...a, status } : a)))
  const pending = new Map<string, string>()
  let held: Promise<void> | null = null
  const service = {
    create: vi.fn(async (_params: { owner: { id: string; provider: string } }) => {
      steps.push('create')
      return { accounts: accounts.map((a) => ({ ...a })) }
    }),
    userOp: {
      deploy: {
        hash: vi.fn(async ({ accountId }: { accountId: string }) => {
          steps.push(`hash ${accountId}`)
          pending.set('op-1', accountId)
          return { hash: deployHash as string, userOpId: 'op-1', isSponsored: true }
        }),
        estimate: vi.fn(),
      },
      submit: vi.fn(async (params: { hash: string; userOpId: string; signature: string; isSponsored?: boolean }) => {
        steps.push('submit')
        await held
        set(pending.get(params.userOpId)!, 'deploying')
        return { userOpHash: params.hash, userOpId: params.userOpId, status: 'submitted' }
      }),
    },
    owner: {
      signUserOperation: vi.fn(async (_params: { userOpId: string; stepUpProof?: string }) => ({ signature: ownerSignature as string })),
      signAccountMessage: vi.fn(),
      signAccountTypedData: vi.fn(),
    },
  }
  return {
    service: service as typeof service & SmartAccountService,
    steps,
    /** Submit answers only once the returned function is called. */
    holdSubmit(): () => void {
      let release!: () => void
      held = new Promise<void>((resolve) => (release = resolve))
      return () => {
        held = null
        release()
      }
    },
    /** The user operation was mined: every deploying account is deployed. */
    mine: () => (accounts = accounts.map((a) => (a.status === 'deploying' ? { ...a, status: 'deployed' } : a))),
  }
}

/** The app's chains: the sandbox's local ones (their names come from here), and one the screen's own names (sdk/chain-names.ts) call differently. */
export const appChains = [
  { chainId: 31337, name: 'Local Chain 1', network: 'local-1', rpcUrls: [], nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true },
  { chainId: 31338, name: 'Local Chain 2', network: 'local-2', rpcUrls: [], nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, testnet: true },
  { chainId: 137, name: 'Polygon Mainnet', network: 'polygon', rpcUrls: [], nativeCurrency: { name: 'POL', symbol: 'POL', decimals: 18 }, testnet: false },
]

/**
 * The widget around `children`, signed in as alice (embedded wallet, Local Chain 1) with the
 * profile open, the app's config with `isAAEnabled`, a fresh query cache, and a client whose
 * smart-account service is `service` (its owner signs operations with `ownerSignature`).
 */
export async function renderWidget(
  children: ReactNode,
  options: { service?: SmartAccountService; isAAEnabled?: boolean; session?: 'embedded' | 'walletconnect' } = {},
) {
  const client = { ...(options.service && { smartAccount: options.service }) }
  const t = await renderProfileWidget(children, {
    client,
    config: { isAAEnabled: options.isAAEnabled ?? true, showPoweredBy: false, chains: appChains } as Partial<AppConfig>,
    prepare: (wallet) => {
      if (options.session === 'walletconnect') setUi(wallet, { session: { address: alice.address, walletConnect: { peer: 'Dev Wallet' } } })
    },
  })
  return t
}
