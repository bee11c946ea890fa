import { randomUUID } from 'node:crypto'
import { createWalletClient, decodeEventLog, getAddress, http, type Address, type Hash, type Hex, type PrivateKeyAccount } from 'viem'
import {
  entryPoint07Abi,
  formatUserOperation,
  formatUserOperationRequest,
  getUserOperationHash,
  toPackedUserOperation,
  type RpcUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import type { Store } from '../../infra/database/store.ts'
import type { Network } from '../chain/networks.ts'
import { BundlerError, entryPointError, invalidUserOp, rejectedByEntryPoint, rejectedByPaymaster } from './bundler-errors.ts'
import { checkOperation, estimateOperation, maxCostOf } from './bundler-policy.ts'
import { finishOp, insertOp, opByHash, refundTank, reserveTank, setAccountStatus, setMaxCost, submittedOps, type OpReceipt, type OpRow } from './queries.ts'

export { BundlerError, invalidUserOp } from './bundler-errors.ts'

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
  /** Picks up operations left 'submitted' by an earlier run: finished if their event is on chain, queued again if not. */
  resume(): Promise<void>
  close(): void
}

const events = entryPoint07Abi.filter((item) => item.type === 'event' && (item.name === 'UserOperationEvent' || item.name === 'UserOperationRevertReason'))

export const storedOp = (op: UserOp): Record<string, string> => formatUserOperationRequest(op) as unknown as Record<string, string>
export const loadOp = (row: Pick<OpRow, 'user_op'>): UserOp => formatUserOperation(row.user_op as unknown as RpcUserOperation) as UserOp

/**
 * The sandbox's bundler on one chain: one key (the bundler's own), one `handleOps` at a time, so its
 * nonces never race. Operations wait `bundleDelayMs` to be gathered into one bundle (a person sees
 * 'Activating' for that long), are simulated together (one the EntryPoint refuses is dropped and the
 * rest go on), and are tracked to their UserOperationEvent.
 */
export function createBundler(options: { network: Network; key: PrivateKeyAccount; store: Store; paymaster: Address; bundleDelayMs?: number }): Bundler {
  const { network, key, store } = options
  const chainId = network.chain.chainId
  const client = network.client
  const wallet = createWalletClient({ account: key, chain: network.viemChain, transport: http(network.chain.rpcUrl, { retryCount: 0 }) })
  const bundleDelayMs = options.bundleDelayMs ?? 300
  const queue: { hash: Hash; op: UserOp; meta: OpMeta }[] = []
  const waiters = new Map<string, ((row: OpRow | undefined) => void)[]>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let closed = false

  const userOpHash = (op: UserOp): Hash => getUserOperationHash({ chainId, entryPointAddress, entryPointVersion: '0.7', userOperation: op })

  /** The fees of the bundle transaction: simulated with the very same, so what passes the simulation passes on chain. */
  async function bundleFees() {
    const { baseFeePerGas } = await client.getBlock()
    return { maxFeePerGas: 2n * (baseFeePerGas ?? 0n) + 1n, maxPriorityFeePerGas: 0n }
  }

  async function simulateBundle(ops: UserOp[], fees?: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }): Promise<void> {
    try {
      await client.simulateContract({
        account: key.address,
        address: entryPointAddress,
        abi: entryPoint07Abi,
        functionName: 'handleOps',
        args: [ops.map((op) => toPackedUserOperation(op)), key.address],
        ...(fees ?? (await bundleFees())),
      })
    } catch (error) {
      throw entryPointError(error)
    }
  }

  const wake = (hash: string, row: OpRow | undefined) => {
    for (const resolve of waiters.get(hash) ?? []) resolve(row)
    waiters.delete(hash)
  }

  /** Ends a submitted operation as failed, once, and gives its reservation back to the gas tank. */
  async function fail(hash: Hash, reason: string) {
    const row = await opByHash(store, hash)
    if (row && (await finishOp(store, row.id, { status: 'failed', reason })) && row.sponsored && row.app_id && row.environment)
      await refundTank(store, { appId: row.app_id, environment: row.environment }, chainId, BigInt(row.max_cost))
    wake(hash, await opByHash(store, hash))
  }

  async function bundle(): Promise<void> {
    const batch = queue.splice(0)
    try {
      const fees = await bundleFees()
      // Drop, one by one, what the EntryPoint refuses in this bundle (an account's nonce taken meanwhile…).
      while (batch.length) {
        try {
          await simulateBundle(
            batch.map((entry) => entry.op),
            fees,
          )
          break
        } catch (error) {
          const index = error instanceof BundlerError && 'opIndex' in error ? Number((error as BundlerError & { opIndex: bigint }).opIndex) : 0
          const [dropped] = batch.splice(index, 1)
          await fail(dropped!.hash, (error as Error).message)
        }
      }
      if (!batch.length) return
      const txHash = await wallet.writeContract({
        address: entryPointAddress,
        abi: entryPoint07Abi,
        functionName: 'handleOps',
        args: [batch.map((entry) => toPackedUserOperation(entry.op)), key.address],
        ...fees,
      })
      const receipt = await client.waitForTransactionReceipt({ hash: txHash, pollingInterval: 50 })
      await record(receipt.logs, receipt.transactionHash, receipt.blockHash, receipt.blockNumber)
    } finally {
      // Whatever this bundle did not include (it failed to send, or was mined without it) is failed, and told.
      for (const entry of batch) await fail(entry.hash, 'The bundle did not include this operation')
    }
  }

  /** Stores what the EntryPoint's events say of each operation in a mined bundle, and charges its gas tank. */
  async function record(logs: readonly { address: Address; topics: readonly Hex[]; data: Hex }[], txHash: Hash, blockHash: Hash, blockNumber: bigint) {
    const reasons = new Map<string, string>()
    const outcomes: { hash: Hash; receipt: OpReceipt }[] = []
    for (const log of logs) {
      if (log.address.toLowerCase() !== entryPointAddress.toLowerCase()) continue
      const decoded = (() => {
        try {
          return decodeEventLog({ abi: events, data: log.data, topics: log.topics as [Hex, ...Hex[]] })
        } catch {
          return undefined
        }
      })()
      if (!decoded) continue
      if (decoded.eventName === 'UserOperationRevertReason') reasons.set(decoded.args.userOpHash, decoded.args.revertReason)
      else {
        const a = decoded.args
        outcomes.push({
          hash: a.userOpHash,
          receipt: {
            success: a.success,
            actualGasCost: a.actualGasCost.toString(),
            actualGasUsed: a.actualGasUsed.toString(),
            nonce: a.nonce.toString(),
            paymaster: a.paymaster,
            blockNumber: blockNumber.toString(),
            blockHash,
            transactionHash: txHash,
          },
        })
      }
    }
    for (const { hash, receipt } of outcomes) {
      const row = await opByHash(store, hash)
      if (!row || row.status === 'included') continue
      const reason = reasons.get(hash)
      const finished = await finishOp(store, row.id, { status: 'included', txHash, receipt: reason ? { ...receipt, reason } : receipt })
      // The tank paid the maximum when the operation was sent: what it did not use comes back.
      if (finished && row.sponsored && row.app_id && row.environment)
        await refundTank(store, { appId: row.app_id, environment: row.environment }, chainId, BigInt(row.max_cost) - BigInt(receipt.actualGasCost))
      // The account exists once its first operation is in (its initCode ran), whatever its call did.
      if (row.user_op.factory) await setAccountStatus(store, chainId, row.sender, 'deployed')
      wake(hash, await opByHash(store, hash))
    }
  }

  function schedule() {
    if (closed || timer || running) return
    timer = setTimeout(() => {
      timer = undefined
      running = bundle()
        .catch(() => {})
        .finally(() => {
          running = undefined
          if (queue.length) schedule()
        })
    }, bundleDelayMs)
  }

  return {
    chainId,
    address: key.address,
    userOpHash,

    estimate: (op) => estimateOperation(client, op),

    simulate: (op) => simulateBundle([op]),

    async send(op, meta) {
      if (closed) throw new BundlerError(rejectedByEntryPoint, 'The bundler is stopped')
      const hash = userOpHash(op)
      if (queue.some((entry) => entry.hash === hash)) throw new BundlerError(invalidUserOp, 'This operation is already queued')
      if (!meta.stored && (await opByHash(store, hash))) throw new BundlerError(invalidUserOp, 'This operation was already sent')
      await checkOperation(client, op, options.paymaster)
      await simulateBundle([op])
      // A sponsored operation takes its maximum cost from the tank now (given back in part once included).
      const maxCost = maxCostOf(op)
      if (meta.sponsored) {
        if (!meta.app || !(await reserveTank(store, meta.app, chainId, maxCost)))
          throw new BundlerError(rejectedByPaymaster, `The app's gas tank on chain ${chainId} is too low to sponsor this operation: top it up`)
      }
      if (meta.stored && meta.id) await setMaxCost(store, meta.id, maxCost)
      if (!meta.stored) {
        await insertOp(store, {
          id: meta.id ?? randomUUID(),
          hash,
          chain_id: chainId,
          sender: getAddress(op.sender),
          account_id: meta.accountId ?? null,
          app_id: meta.app?.appId ?? null,
          environment: meta.app?.environment ?? null,
          kind: meta.kind,
          user_op: storedOp(op),
          sponsored: meta.sponsored,
          max_cost: maxCost.toString(),
          status: 'submitted',
        })
      }
      if (op.factory) await setAccountStatus(store, chainId, getAddress(op.sender), 'deploying')
      queue.push({ hash, op, meta })
      schedule()
      return hash
    },

    async settled(hash, timeoutMs = 30_000) {
      const row = await opByHash(store, hash)
      if (!row || row.status === 'included' || row.status === 'failed' || row.status === 'built') return row
      return await new Promise<OpRow | undefined>((resolve) => {
        const waiter = (value: OpRow | undefined) => {
          clearTimeout(timeout)
          resolve(value)
        }
        const timeout = setTimeout(async () => {
          const left = (waiters.get(hash) ?? []).filter((w) => w !== waiter)
          if (left.length) waiters.set(hash, left)
          else waiters.delete(hash)
          resolve(await opByHash(store, hash))
        }, timeoutMs)
        waiters.set(hash, [...(waiters.get(hash) ?? []), waiter])
      })
    },

    async resume() {
      for (const row of await submittedOps(store, chainId)) {
        const logs = await client.getLogs({
          address: entryPointAddress,
          event: events.find((e) => e.name === 'UserOperationEvent')!,
          args: { userOpHash: row.hash },
          fromBlock: 0n,
        })
        const log = logs[0]
        if (log) {
          const receipt = await client.getTransactionReceipt({ hash: log.transactionHash })
          await record(receipt.logs, receipt.transactionHash, receipt.blockHash, receipt.blockNumber)
          continue
        }
        const op = loadOp(row)
        try {
          await simulateBundle([op])
        } catch (error) {
          await fail(row.hash, (error as Error).message)
          continue
        }
        queue.push({ hash: row.hash, op, meta: { kind: row.kind, sponsored: row.sponsored } })
      }
      schedule()
    },

    close() {
      closed = true
      clearTimeout(timer)
      for (const hash of [...waiters.keys()]) wake(hash, undefined)
    },
  }
}
