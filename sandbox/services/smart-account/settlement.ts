import {
  decodeAbiParameters,
  decodeEventLog,
  isAddressEqual,
  size,
  slice,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
} from 'viem'
import { entryPoint07Abi, type UserOperation } from 'viem/account-abstraction'
import { entryPointAddress } from '../../contracts/account-abstraction.ts'
import type { Store } from '../../infra/database/store.ts'
import { dailySponsorCapOf, type Environment } from '../app-config/apps.ts'
import { findApp } from '../app-config/queries.ts'
import { BundlerError, rejectedByPaymaster } from './bundler-errors.ts'
import {
  hasUnsettledSponsorships,
  opById,
  opByHash,
  reserveOp,
  settleOp,
  sponsoredLastDay,
  unsettledFailedOps,
  type AppRef,
  type OpReceipt,
  type OpRow,
} from './queries.ts'

// How the gas tank pays for what the chain did (the bundler, bundler.ts, uses these): a sponsored
// operation sets its maximum cost aside when sent (within the app's per-user daily cap); it is charged
// its actualGasCost once its UserOperationEvent is on chain, whoever bundled it; the reservation comes
// back only when the chain shows the operation can never be included. A sponsorship signed for an
// app through ERC-7677's pm_getPaymasterData is set aside when signed (rpc-routes.ts) and settled the
// same way, whoever includes it.

type UserOp = UserOperation<'0.7'>

const events = entryPoint07Abi.filter((item) => item.type === 'event' && (item.name === 'UserOperationEvent' || item.name === 'UserOperationRevertReason'))
const userOperationEvent = entryPoint07Abi.find((item) => item.type === 'event' && item.name === 'UserOperationEvent')! as Extract<
  (typeof entryPoint07Abi)[number],
  { type: 'event'; name: 'UserOperationEvent' }
>

export const appOfRow = (row: OpRow): AppRef | undefined => (row.app_id && row.environment ? { appId: row.app_id, environment: row.environment } : undefined)

/** Each operation a mined `handleOps` ran, as its UserOperationEvent (and UserOperationRevertReason) tell. */
export function entryPointOutcomes(
  logs: readonly { address: Address; topics: readonly Hex[]; data: Hex }[],
  tx: { transactionHash: Hash; blockHash: Hash; blockNumber: bigint },
): { hash: Hash; receipt: OpReceipt }[] {
  const reasons = new Map<string, string>()
  const outcomes: { hash: Hash; receipt: OpReceipt }[] = []
  for (const log of logs) {
    if (!isAddressEqual(log.address, entryPointAddress)) continue
    let decoded: ReturnType<typeof decodeEventLog<typeof events>> | undefined
    try {
      decoded = decodeEventLog({ abi: events, data: log.data, topics: log.topics as [Hex, ...Hex[]] })
    } catch {
      continue
    }
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
          blockNumber: tx.blockNumber.toString(),
          blockHash: tx.blockHash,
          transactionHash: tx.transactionHash,
        },
      })
    }
  }
  return outcomes.map(({ hash, receipt }) => {
    const reason = reasons.get(hash)
    return { hash, receipt: reason ? { ...receipt, reason } : receipt }
  })
}

/** When the sandbox paymaster's signature in `op` stops being valid (unix seconds), if it has an end. */
export function sponsorshipEnd(op: UserOp, paymaster: Address): bigint | undefined {
  if (!op.paymaster || !isAddressEqual(op.paymaster, paymaster) || !op.paymasterData || size(op.paymasterData) < 64) return undefined
  const [validUntil] = decodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], slice(op.paymasterData, 0, 64))
  return validUntil === 0 ? undefined : BigInt(validUntil)
}

/**
 * What the chain says of an operation: the receipt of the transaction that included it, 'dead' (it
 * can never be included: its nonce is used, its account was deployed by another, or its sponsorship
 * expired), or 'open'. The state is read at one block before the events are, so an inclusion in
 * between is found as an event, never taken for a used nonce.
 */
export async function chainOutcome(client: PublicClient, paymaster: Address, hash: Hash, op: UserOp): Promise<TransactionReceipt | 'dead' | 'open'> {
  const block = await client.getBlock()
  const [nonce, code] = await Promise.all([
    client.readContract({
      address: entryPointAddress,
      abi: entryPoint07Abi,
      functionName: 'getNonce',
      args: [op.sender, op.nonce >> 64n],
      blockNumber: block.number,
    }),
    op.factory ? client.getCode({ address: op.sender, blockNumber: block.number }) : undefined,
  ])
  const logs = await client.getLogs({ address: entryPointAddress, event: userOperationEvent, args: { userOpHash: hash }, fromBlock: 0n })
  if (logs[0]) return await client.getTransactionReceipt({ hash: logs[0].transactionHash })
  if (nonce > op.nonce || (op.factory && code && code !== '0x')) return 'dead'
  const end = sponsorshipEnd(op, paymaster)
  return end !== undefined && block.timestamp > end ? 'dead' : 'open'
}

/** How often the watch reads the chain. */
const watchMs = 1000

/**
 * The watch, every second once started: the sandbox paymaster's UserOperationEvents in new blocks
 * (anyone's bundles) are recorded, which charges their tanks; failed operations still holding a
 * reservation give it back once the chain shows they cannot be included. It only acts on sponsored
 * operations not yet settled, so it stops when none is left, rather than read the chain and the
 * database every second for nothing; whoever stores such an operation starts it again (`start`),
 * and it then reads every block since its last round.
 */
export function watchChain(input: {
  client: PublicClient
  store: Store
  chainId: number
  paymaster: Address
  record(receipt: TransactionReceipt): Promise<void>
  outcomeOf(row: OpRow): Promise<'included' | 'dead' | 'open'>
}) {
  const { client, store, chainId, paymaster } = input
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  /** A round is running; `again`: start was asked meanwhile (its operation may be newer than the round's last look). */
  let running = false
  let again = false
  /** The next block whose events are read. */
  let from = 0n
  /** One round; true while some sponsored operation on this chain is still unsettled. */
  async function once(): Promise<boolean> {
    const latest = await client.getBlockNumber()
    if (latest >= from) {
      const logs = await client.getLogs({ address: entryPointAddress, event: userOperationEvent, args: { paymaster }, fromBlock: from, toBlock: latest })
      for (const log of logs) {
        const row = await opByHash(store, log.args.userOpHash!)
        if (row && !(row.status === 'included' && row.settled_at)) await input.record(await client.getTransactionReceipt({ hash: log.transactionHash }))
      }
      from = latest + 1n
    }
    for (const row of await unsettledFailedOps(store, chainId)) if ((await input.outcomeOf(row)) === 'dead') await settleSponsorship(store, chainId, row, 0n)
    return hasUnsettledSponsorships(store, chainId)
  }
  const start = () => {
    if (stopped) return
    if (running) again = true
    if (running || timer) return
    timer = setTimeout(async () => {
      running = true
      again = false
      // A failed round (the chain or the database busy) is tried again.
      const open = await once().catch(() => true)
      running = false
      timer = undefined
      if (open || again) start()
    }, watchMs)
    timer.unref?.()
  }
  return {
    start,
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}

/**
 * Sets a sponsored operation's maximum cost aside in its app's gas tank, within the app's per-user
 * daily cap (smartAccount.dailySponsorPerUserWei): the refusal, or undefined when it is set aside.
 */
export async function reserveSponsorship(
  store: Store,
  input: { id: string; app: AppRef | undefined; chainId: number; sender: Address; amount: bigint },
): Promise<BundlerError | undefined> {
  const { id, app, chainId, sender, amount } = input
  // Already set aside for this very operation (a sponsorship signed through pm_getPaymasterData, now sent here): nothing more to take.
  const row = await opById(store, id)
  if (row?.sponsored && !row.settled_at && BigInt(row.reserved) >= amount) return undefined
  const low = new BundlerError(rejectedByPaymaster, `The app's gas tank on chain ${chainId} is too low to sponsor this operation: top it up`)
  if (!app) return low
  let cap: bigint | undefined
  try {
    const found = await findApp(store, app.appId, app.environment as Environment)
    cap = found ? dailySponsorCapOf(found.settings) : undefined
  } catch (error) {
    return new BundlerError(rejectedByPaymaster, `The app's settings cannot be used: ${(error as Error).message}`)
  }
  if (await reserveOp(store, { id, app, chainId, sender, amount, cap })) return undefined
  if (cap !== undefined) {
    const spent = await sponsoredLastDay(store, app, chainId, sender)
    if (spent + amount > cap)
      return new BundlerError(
        rejectedByPaymaster,
        `This account's sponsored gas on chain ${chainId} would pass the app's daily sponsorship cap (smartAccount.dailySponsorPerUserWei: ${cap} wei per user in 24 hours; ${spent} wei used, this operation needs up to ${amount} wei). Send it unsponsored (isSponsored: false) or try again later`,
      )
  }
  return low
}

/** Ends a sponsored operation's reservation, once: charged `charge` (0: all of it given back). */
export async function settleSponsorship(store: Store, chainId: number, row: OpRow, charge: bigint): Promise<void> {
  const app = appOfRow(row)
  if (row.sponsored && app && !row.settled_at) await settleOp(store, { id: row.id, app, chainId, charge })
}
