import type { Address, Hash, PrivateKeyAccount } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import type { Store } from '../../infra/database/store.ts'
import type { Network } from '../chain/networks.ts'
import type { AccountKinds } from './account-kinds.ts'
import type { OpRow } from './queries.ts'

// The bundler's types (bundler.ts implements Bundler).

/** A v0.7 user operation in viem's unpacked shape. */
export type UserOp = UserOperation<'0.7'>

/** Gas figures of an operation (what eth_estimateUserOperationGas answers). */
export type GasEstimate = {
  preVerificationGas: bigint
  verificationGasLimit: bigint
  callGasLimit: bigint
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
}

/** Who an operation is for, and who pays: stored with it, so charging the gas tank survives a restart. */
export type OpMeta = { id?: string; accountId?: string; app?: { appId: string; environment: string }; kind: string; sponsored: boolean }

export type Bundler = {
  readonly chainId: number
  readonly address: Address
  userOpHash(op: UserOp): Hash
  estimate(op: UserOp): Promise<GasEstimate>
  /** Simulates `handleOps` with the operation alone; throws a BundlerError with the EntryPoint's reason. */
  simulate(op: UserOp): Promise<void>
  /** Simulated, stored as submitted (unless already stored) and queued for the next bundle. */
  send(op: UserOp, meta: OpMeta & { stored?: boolean }): Promise<Hash>
  /** Settles when the operation is included or has failed. */
  settled(hash: Hash, timeoutMs?: number): Promise<OpRow | undefined>
  /**
   * Picks up operations left 'submitted' by an earlier run (finished if their event is on chain, failed
   * if the chain shows they never can be, queued again if not) and starts watching the chain.
   */
  resume(): Promise<void>
  /** Watches the chain for the sponsored operations stored outside `send` (built, or signed for an app) until they are settled. */
  watch(): void
  close(): void
}

/** What one chain's bundler runs on: its chain, its key (which pays every bundle), the sandbox's paymaster there, which accounts it takes. */
export type BundlerOptions = { network: Network; key: PrivateKeyAccount; store: Store; paymaster: Address; accounts: AccountKinds; bundleDelayMs?: number }
