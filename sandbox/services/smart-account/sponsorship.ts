import { randomUUID } from 'node:crypto'
import { getAddress } from 'viem'
import type { PaymasterFields } from '../../contracts/account-abstraction.ts'
import type { Deps } from '../../context.ts'
import { BundlerError, invalidUserOp, loadOp, storedOp, type UserOp } from './bundler.ts'
import { maxCostOf } from './bundler-policy.ts'
import { deleteUnreservedSponsorship, insertOp, openSponsorships, type AppRef } from './queries.ts'
import { reserveSponsorship, sponsorshipEnd } from './settlement.ts'

// Sponsorship through ERC-7677's pm_getPaymasterData (rpc-routes.ts) is paid from the app's gas tank
// whoever includes the operation: its cost is set aside before the signature is handed out.

/** Same-account sponsorships are decided one at a time, so the same operation asked twice at once reserves once. */
const sponsoring = new Map<string, Promise<unknown>>()
function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const before = sponsoring.get(key) ?? Promise.resolve()
  const next = before.then(work, work)
  const settled = next.catch(() => {})
  sponsoring.set(key, settled)
  settled.then(() => {
    if (sponsoring.get(key) === settled) sponsoring.delete(key)
  })
  return next
}

/** What an operation is, but for its paymaster data and signature: the same operation asked for again compares equal. */
const sameOperation = (op: UserOp) =>
  JSON.stringify(Object.entries(storedOp({ ...op, paymasterData: '0x', signature: '0x' })).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))

/** A sponsorship asked again this close to its end gets a new signature (and its own reservation) instead. */
const reuseMarginSeconds = 60n

/**
 * The paymaster's signature for `op`, sponsored by `app` (ERC-7677 pm_getPaymasterData). Whoever
 * includes the operation — this bundler, or the app's own `handleOps` — the app's gas tank pays: its
 * maximum cost is set aside here, within the app's per-user daily cap, in a row keyed by its
 * userOpHash (status paymaster_signed), before the signature is handed out; the chain watch
 * (settlement.ts) charges its actualGasCost once its UserOperationEvent is on chain, and gives the
 * reservation back once the chain shows it can never be included (its nonce used, its sponsorship
 * expired). The same operation asked for again gets the same signature, reserved once.
 */
export async function sponsorForApp(deps: Deps, chainId: number, app: AppRef, op: UserOp): Promise<PaymasterFields> {
  const paymaster = deps.smartAccounts.paymaster(chainId)
  const bundler = deps.smartAccounts.bundler(chainId)
  const sender = getAddress(op.sender)
  return await oneAtATime(`${chainId}:${sender}`, async () => {
    const wanted = sameOperation(op)
    const now = BigInt(Math.floor(Date.now() / 1000))
    for (const row of await openSponsorships(deps.store, app, chainId, sender)) {
      const signed = loadOp(row)
      const end = sponsorshipEnd(signed, paymaster.address)
      if (sameOperation(signed) !== wanted || BigInt(row.reserved) === 0n || (end !== undefined && end < now + reuseMarginSeconds)) continue
      return {
        paymaster: signed.paymaster!,
        paymasterData: signed.paymasterData!,
        paymasterVerificationGasLimit: signed.paymasterVerificationGasLimit ?? 0n,
        paymasterPostOpGasLimit: signed.paymasterPostOpGasLimit ?? 0n,
      }
    }
    const fields = await paymaster.sign(op)
    const signed = { ...op, ...fields }
    const id = randomUUID()
    const amount = maxCostOf(signed)
    const inserted = await insertOp(deps.store, {
      id,
      hash: bundler.userOpHash(signed),
      chain_id: chainId,
      sender,
      account_id: null,
      app_id: app.appId,
      environment: app.environment,
      kind: 'paymaster',
      user_op: storedOp(signed),
      sponsored: true,
      max_cost: amount.toString(),
      status: 'paymaster_signed',
    })
    if (!inserted) throw new BundlerError(invalidUserOp, 'This operation was already sponsored and sent')
    const refusal = await reserveSponsorship(deps.store, { id, app, chainId, sender, amount })
    if (refusal) {
      // Nothing handed out: the signature is dropped with its row.
      await deleteUnreservedSponsorship(deps.store, id)
      throw new BundlerError(refusal.code, refusal.message.replace(/ \(isSponsored: false\)/, ''))
    }
    // Whoever includes it, its gas is charged when the watch sees it on chain.
    bundler.watch()
    return fields
  })
}
