import { formatUnits, parseUnits } from 'viem'
import { thresholdChangeHash } from '../../../sdk/wallet/step-up-threshold.ts'
import type { Deps } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import type { Store } from '../../infra/database/store.ts'
import type { App } from '../app-config/apps.ts'
import { transactionStepUpAbove } from '../app-config/step-up-setting.ts'
import type { Network } from '../chain/networks.ts'
import { requireStepUp, type StepUpSession } from '../step-up/step-up.ts'

// The user's own "ask a second factor before sending more than X" per chain. The app's threshold
// still holds: the lower of the two applies. Making it stricter (a new one, a lower one) needs
// nothing; making it looser (a higher one, none) needs a step-up proof bound to the change, or a
// stolen wallet token would simply switch it off before draining the wallet.

/** The user's threshold on `chainId` in the chain's base unit, or undefined when they set none. */
export async function userStepUpAbove(store: Store, userId: string, chainId: number): Promise<bigint | undefined> {
  const { rows } = await store.query<{ above: string }>('SELECT above FROM user_step_up_thresholds WHERE user_id = $1 AND chain_id = $2', [userId, chainId])
  const above = rows[0]?.above
  if (above === undefined) return undefined
  // A stored value that is not a plain integer (an edit by hand) asks for every value-moving transaction.
  return /^\d{1,80}$/.test(above) ? BigInt(above) : 0n
}

/** The lower of two thresholds; undefined (no threshold) only when both are. */
export function lowerThreshold(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  if (a === undefined) return b
  if (b === undefined) return a
  return a < b ? a : b
}

/** Every chain of the sandbox with the app's, the user's and the effective threshold, as decimal strings in the native unit. */
export async function thresholdsOf(deps: Deps, app: App, userId: string) {
  return Promise.all(
    deps.networks.list.map(async ({ chain }) => {
      const { chainId, network, nativeCurrency } = chain
      const format = (value: bigint | undefined) => (value === undefined ? null : formatUnits(value, nativeCurrency.decimals))
      const appAbove = transactionStepUpAbove(app.settings, chainId, nativeCurrency.decimals)
      const userAbove = await userStepUpAbove(deps.store, userId, chainId)
      return {
        chainId,
        network,
        symbol: nativeCurrency.symbol,
        decimals: nativeCurrency.decimals,
        app: format(appAbove),
        user: format(userAbove),
        effective: format(lowerThreshold(appAbove, userAbove)),
      }
    }),
  )
}

/** The network of a chain id given in a path, or a 400 for one the sandbox does not run. */
export function networkOfChainId(deps: Deps, value: string): Network {
  const chainId = /^[1-9]\d{0,15}$/.test(value) ? Number(value) : Number.NaN
  const found = deps.networks.list.find((entry) => entry.chain.chainId === chainId)
  if (!found) throw new HttpError(400, `Unknown chain, use one of: ${deps.networks.list.map((entry) => entry.chain.chainId).join(', ')}`)
  return found
}

/** A threshold as the user types it: a non-negative decimal string in the native unit with at most the chain's decimals. */
export function readThreshold(value: unknown, decimals: number): bigint {
  if (typeof value !== 'string' || value.length > 80 || !/^\d{1,59}(\.\d+)?$/.test(value))
    throw new HttpError(400, 'amount must be a non-negative decimal string in the native unit, e.g. "0.5"')
  const fraction = value.split('.')[1] ?? ''
  if (fraction.length > decimals) throw new HttpError(400, `amount has more than ${decimals} decimals`)
  return parseUnits(value, decimals)
}

/**
 * Sets (`above`) or removes (null) the user's threshold on `chainId`. A change that lets more through
 * than today spends a `loosen-step-up` proof bound to `thresholdChangeHash(chainId, above)` first.
 * The write only lands if the stored value is still the one judged, so a stricter value written
 * meanwhile is never replaced without a proof.
 */
export async function changeThreshold(deps: Deps, app: App, session: StepUpSession, chainId: number, above: bigint | null, proof: unknown) {
  const current = await userStepUpAbove(deps.store, session.userId, chainId)
  const looser = current !== undefined && (above === null || above > current)
  if (looser) await requireStepUp(deps, app, session, 'loosen-step-up', proof, thresholdChangeHash(chainId, above))
  const params = [session.userId, chainId]
  const { rowCount } =
    above === null
      ? await deps.store.query('DELETE FROM user_step_up_thresholds WHERE user_id = $1 AND chain_id = $2 AND above = $3', [...params, String(current)])
      : current === undefined
        ? await deps.store.query('INSERT INTO user_step_up_thresholds (user_id, chain_id, above) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
            ...params,
            above.toString(),
          ])
        : await deps.store.query('UPDATE user_step_up_thresholds SET above = $3, updated_at = now() WHERE user_id = $1 AND chain_id = $2 AND above = $4', [
            ...params,
            above.toString(),
            current.toString(),
          ])
  if (above === null && current === undefined) return
  if (rowCount !== 1) throw new HttpError(409, 'The threshold changed meanwhile, load it again and retry')
}
