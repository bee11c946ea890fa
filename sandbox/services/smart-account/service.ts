import { zeroHash, type Address, type Hash, type Hex, type PrivateKeyAccount } from 'viem'
import type { Store } from '../../infra/database/store.ts'
import { HttpError } from '../../http/exchange.ts'
import type { Network, Networks } from '../chain/networks.ts'
import { createAccountKinds } from './account-kinds.ts'
import { createBundler, type Bundler } from './bundler.ts'
import { createPaymaster, type Paymaster } from './paymaster.ts'
import type { AccountSignRequest } from './erc7739.ts'
import type { AccountRow } from './queries.ts'

/** What /signMessage/hash or /signTypedData/hash handed out, kept until /buildSignature (or 10 minutes). */
type PendingSignature = AccountSignRequest & { accountId: string }

/** Our account's EIP-712 domain (WalletKitAccount.sol): ERC-7739 signatures are bound to it. */
export const accountDomainName = { name: 'WalletKitAccount', version: '1' } as const

/** The smart-account service's long-lived parts, one per sandbox: a bundler and a paymaster per chain, pending signatures. */
export type SmartAccounts = {
  bundler(chainId: number): Bundler
  paymaster(chainId: number): Paymaster
  /** Where gas-tank top-ups are sent (the bundler's account, which pays every bundle). */
  pool(chainId: number): Address
  accountDomain(
    network: Network,
    row: Pick<AccountRow, 'address' | 'chain_id'>,
  ): Promise<{ name: string; version: string; chainId: number; verifyingContract: Address; salt: Hex }>
  pending: { get(hash: Hash): PendingSignature | undefined; set(hash: Hash, value: PendingSignature): void; delete(hash: Hash): void }
  resume(): Promise<void>
  close(): void
}

export function createSmartAccounts(options: {
  networks: Networks
  store: Store
  bundlerKey: PrivateKeyAccount
  paymasterKey: PrivateKeyAccount
  bundleDelayMs?: number
}): SmartAccounts {
  const bundlers = new Map<number, Bundler>()
  const paymasters = new Map<number, Paymaster>()
  for (const network of options.networks.list) {
    const chainId = network.chain.chainId
    // The paymaster and the bundler both ask which kind of account sends an operation: one memory of it per chain.
    const accounts = createAccountKinds(network.client)
    const paymaster = createPaymaster({ network, signer: options.paymasterKey, accounts })
    paymasters.set(chainId, paymaster)
    bundlers.set(
      chainId,
      createBundler({ network, key: options.bundlerKey, store: options.store, paymaster: paymaster.address, accounts, bundleDelayMs: options.bundleDelayMs }),
    )
  }
  const pending = new Map<string, { value: PendingSignature; until: number }>()
  const of = <T>(map: Map<number, T>, chainId: number): T => {
    const found = map.get(chainId)
    if (!found) throw new HttpError(400, `Chain ${chainId} is not served by this sandbox`)
    return found
  }
  return {
    bundler: (chainId) => of(bundlers, chainId),
    paymaster: (chainId) => of(paymasters, chainId),
    pool: (chainId) => of(bundlers, chainId).address,
    accountDomain: async (_network, row) => ({ ...accountDomainName, chainId: row.chain_id, verifyingContract: row.address, salt: zeroHash }),
    pending: {
      get(hash) {
        const entry = pending.get(hash.toLowerCase())
        return entry && entry.until > Date.now() ? entry.value : undefined
      },
      set(hash, value) {
        const now = Date.now()
        for (const [key, entry] of pending) if (entry.until <= now) pending.delete(key)
        // A flood of hash requests is bounded per account: its own oldest go first, nobody else's.
        const own = [...pending].filter(([, entry]) => entry.value.accountId === value.accountId)
        if (own.length >= 100) pending.delete(own[0]![0])
        pending.set(hash.toLowerCase(), { value, until: now + 10 * 60_000 })
      },
      delete: (hash) => void pending.delete(hash.toLowerCase()),
    },
    async resume() {
      for (const bundler of bundlers.values()) await bundler.resume()
    },
    close() {
      for (const bundler of bundlers.values()) bundler.close()
    },
  }
}
