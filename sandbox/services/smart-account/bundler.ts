import { randomUUID } from 'node:crypto'
import { createWalletClient, getAddress, http, type Hash, type TransactionReceipt } from 'viem'
import {
  entryPoint07Abi,
  formatUserOperation,
  formatUserOperationRequest,
  getUserOperationHash,
  toPackedUserOperation,
  type RpcUserOperation,
} from 'viem/account-abstraction'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import type { Bundler, BundlerOptions, OpMeta, UserOp } from './bundler-types.ts'
import { createOpWaiters } from './op-waiters.ts'
import { BundlerError, bundlerErrorCodes, entryPointError, invalidUserOp } from './bundler-errors.ts'
import { checkOperation, estimateOperation, maxCostOf } from './bundler-policy.ts'
import { checkPaymasterDeposit, checkPaymasterWindow } from './paymaster-checks.ts'
import { deleteUnreserved, finishOp, insertOp, opByHash, setAccountStatus, submittedOps, type OpRow } from './queries.ts'
import { appOfRow, chainOutcome, entryPointOutcomes, reserveSponsorship, settleSponsorship, watchChain } from './settlement.ts'

export { BundlerError, invalidUserOp } from './bundler-errors.ts'

export type { Bundler, UserOp } from './bundler-types.ts'

/** How many times an operation that dropped out of a bundle, and still could be included, is queued again. */
const maxTries = 3

type Queued = { hash: Hash; op: UserOp; meta: OpMeta; tries: number }

export const storedOp = (op: UserOp): Record<string, string> => formatUserOperationRequest(op) as unknown as Record<string, string>
export const loadOp = (row: Pick<OpRow, 'user_op'>): UserOp => formatUserOperation(row.user_op as unknown as RpcUserOperation) as UserOp

/**
 * The sandbox's bundler on one chain: one key (the bundler's own), one `handleOps` at a time, so its
 * nonces never race. Operations wait `bundleDelayMs` to be gathered into one bundle (a person sees
 * 'Activating' for that long), are simulated together (one the EntryPoint refuses is dropped and the
 * rest go on), and are tracked to their UserOperationEvent.
 *
 * The gas tank pays for what the chain did, whoever bundled the operation. A sponsored operation
 * sets its maximum cost aside when sent; once its UserOperationEvent is on chain (in our bundle or
 * in anyone's `handleOps`) the tank is charged its actualGasCost and it is included. What the
 * bundler gives up on keeps its reservation until the chain shows it can never be included (its
 * nonce taken by another operation, its account deployed by another, its sponsorship expired); only
 * then is the reservation given back.
 */
export function createBundler(options: BundlerOptions): Bundler {
  const { network, key, store, accounts } = options
  const chainId = network.chain.chainId
  const client = network.client
  const wallet = createWalletClient({ account: key, chain: network.viemChain, transport: http(network.chain.rpcUrl, { retryCount: 0 }) })
  const bundleDelayMs = options.bundleDelayMs ?? 300
  const queue: Queued[] = []
  const waiters = createOpWaiters(store)
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<void> | undefined
  let inFlight: Queued[] = [] // the bundle being sent: out of the queue, not yet paid for
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
      throw entryPointError(error, ops, options.paymaster)
    }
  }

  /** What the chain says of a stored operation; one it included is recorded (and charged) here. */
  async function outcomeOf(row: OpRow): Promise<'included' | 'dead' | 'open'> {
    const outcome = await chainOutcome(client, options.paymaster, row.hash, loadOp(row))
    if (typeof outcome === 'string') return outcome
    await record(outcome)
    return 'included'
  }

  /**
   * Ends a submitted operation as failed, once. Its reservation comes back only when `dead` (the chain
   * shows it cannot be included); otherwise it stays set aside and the watch settles it later.
   */
  async function giveUp(row: OpRow, reason: string, dead: boolean) {
    await finishOp(store, row.id, { status: 'failed', reason })
    if (dead) await settleSponsorship(store, chainId, row, 0n)
    waiters.wake(row.hash, await opByHash(store, row.hash))
  }

  /** An operation that dropped out of a bundle: included by someone (recorded), never includable (failed, released), or tried again. */
  async function drop(entry: Queued, reason: string) {
    const row = await opByHash(store, entry.hash)
    if (!row || row.status === 'included') return
    const outcome = await outcomeOf(row).catch(() => 'open' as const)
    if (outcome === 'included') return
    if (outcome === 'open' && entry.tries < maxTries) {
      try {
        await simulateBundle([entry.op])
        queue.push({ ...entry, tries: entry.tries + 1 })
        return
      } catch (error) {
        reason = (error as Error).message
      }
    }
    await giveUp(row, reason, outcome === 'dead')
  }

  const watcher = watchChain({
    client,
    store,
    chainId,
    paymaster: options.paymaster,
    record,
    outcomeOf,
  })
  const watch = watcher.start

  async function bundle(): Promise<void> {
    const batch = queue.splice(0)
    inFlight = batch
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
          await drop(dropped!, (error as Error).message)
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
      await record(receipt)
    } finally {
      inFlight = []
      // Whatever this bundle did not include (it failed to send, someone included it first, or it was
      // mined without it) is asked of the chain: recorded if included, else tried again or failed.
      for (const entry of batch) await drop(entry, 'The bundle did not include this operation')
    }
  }

  /** Stores what the EntryPoint's events say of each operation in a mined bundle (ours or anyone's), and charges its gas tank. */
  async function record(tx: TransactionReceipt) {
    for (const { hash, receipt } of entryPointOutcomes(tx.logs, tx)) {
      const row = await opByHash(store, hash)
      if (!row) continue
      // Included, whoever bundled it and whatever the bundler thought of it before.
      if (row.status !== 'included') await finishOp(store, row.id, { status: 'included', txHash: tx.transactionHash, receipt })
      // The tank pays what the operation cost on chain; what was set aside beyond that comes back (once).
      await settleSponsorship(store, chainId, row, BigInt(receipt.actualGasCost))
      // The account exists once its first operation is in (its initCode ran), whatever its call did.
      if (row.user_op.factory) await setAccountStatus(store, chainId, row.sender, 'deployed')
      waiters.wake(hash, await opByHash(store, hash))
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

    estimate: (op) => estimateOperation(client, accounts, op),

    simulate: (op) => simulateBundle([op]),

    async send(op, meta) {
      if (closed) throw new BundlerError(bundlerErrorCodes.internal, 'The bundler is stopped')
      const hash = userOpHash(op)
      if (queue.some((entry) => entry.hash === hash)) throw new BundlerError(invalidUserOp, 'This operation is already queued')
      if (!meta.stored && (await opByHash(store, hash))) throw new BundlerError(invalidUserOp, 'This operation was already sent')
      try {
        await checkOperation(client, accounts, op, options.paymaster)
        await simulateBundle([op])
      } catch (error) {
        // A stored operation someone included already (it was readable once submitted): recorded and charged, not refused.
        const row = meta.stored ? await opByHash(store, hash) : undefined
        if (row && (await outcomeOf(row).catch(() => 'open')) === 'included') return hash
        throw error
      }
      const maxCost = maxCostOf(op)
      await checkPaymasterWindow(client, op, options.paymaster)
      await checkPaymasterDeposit(client, op, [...queue, ...inFlight])
      const id = meta.id ?? randomUUID()
      const sender = getAddress(op.sender)
      if (!meta.stored) {
        const inserted = await insertOp(store, {
          id,
          hash,
          chain_id: chainId,
          sender,
          account_id: meta.accountId ?? null,
          app_id: meta.app?.appId ?? null,
          environment: meta.app?.environment ?? null,
          kind: meta.kind,
          user_op: storedOp(op),
          sponsored: meta.sponsored,
          max_cost: maxCost.toString(),
          status: 'submitted',
        })
        if (!inserted) throw new BundlerError(invalidUserOp, 'This operation was already sent')
      }
      // A sponsored operation sets its maximum cost aside in the tank now (charged what it costs once on chain).
      if (meta.sponsored) {
        const refusal = await reserveSponsorship(store, { id, app: meta.app, chainId, sender, amount: maxCost })
        if (refusal) {
          if (!meta.stored) await deleteUnreserved(store, id)
          throw refusal
        }
      }
      if (op.factory) await setAccountStatus(store, chainId, sender, 'deploying')
      queue.push({ hash, op, meta, tries: 0 })
      schedule()
      watch()
      return hash
    },

    settled: (hash, timeoutMs = 30_000) => waiters.settled(hash, timeoutMs),

    watch,

    async resume() {
      for (const row of await submittedOps(store, chainId)) {
        const outcome = await outcomeOf(row)
        if (outcome === 'included') continue
        if (outcome === 'dead') {
          await giveUp(row, 'The chain shows this operation can no longer be included', true)
          continue
        }
        const op = loadOp(row)
        // Stopped between its submit and its reservation: set aside now, or failed.
        if (row.sponsored && BigInt(row.reserved) === 0n) {
          const refusal = await reserveSponsorship(store, { id: row.id, app: appOfRow(row), chainId, sender: getAddress(row.sender), amount: maxCostOf(op) })
          if (refusal) {
            await giveUp(row, refusal.message, false)
            continue
          }
        }
        try {
          await simulateBundle([op])
        } catch (error) {
          await giveUp(row, (error as Error).message, false)
          continue
        }
        queue.push({ hash: row.hash, op, meta: { kind: row.kind, sponsored: row.sponsored }, tries: 0 })
      }
      watch()
      schedule()
    },

    close() {
      closed = true
      clearTimeout(timer)
      watcher.stop()
      waiters.wakeAll()
    },
  }
}
