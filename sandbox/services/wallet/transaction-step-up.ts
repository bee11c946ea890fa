import type { Context } from 'hono'
import { getAddress, isAddressEqual, maxUint256, type Address, type Hex } from 'viem'
import { transactionRequestHash } from '../../../sdk/wallet/transaction-hash.ts'
import { accountAddressOf } from '../../contracts/account-abstraction.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { transactionStepUpAbove } from '../app-config/step-up-setting.ts'
import { authorize } from '../auth/app-guard.ts'
import type { Network } from '../chain/networks.ts'
import { requireStepUp, stepUpSession } from '../step-up/step-up.ts'
import type { TxRequest } from './tx-fields.ts'
import { lowerThreshold, userStepUpAbove } from './user-threshold.ts'

/** The body field a transaction's step-up proof comes in, on every route that moves native value. */
export const stepUpProofField = 'stepUpProof'

/**
 * Lets a transaction through when the app sets no step-up threshold for its chain or its native value
 * is at most that threshold; above it, only with a step-up proof for `send-transaction` earned for
 * this very transaction (sdk/wallet/transaction-hash.ts, the hash the frame asked the code for),
 * spent here. Otherwise 403 `Step-up required: …` with `data.stepUp.action`.
 */
export async function requireTransactionStepUp(c: Context<SandboxEnv>, deps: Deps, network: Network, from: Address, request: TxRequest, proof: unknown) {
  const { chainId } = network.chain
  // The owner key may call its smart account's owner-only functions itself (execute, a new owner, an
  // upgrade, or any calldata its fallback decompresses): such a call can move all the account holds
  // with no native value of its own, so it is held to the rule as if it moved everything.
  const value = (await callsOwnAccount(deps, from, request)) ? maxUint256 : (request.value ?? 0n)
  await requireValueStepUp(c, deps, network, value, () => transactionRequestHash({ chainId, from, ...request }), proof)
}

/** Whether `request` carries calldata to one of `owner`'s smart accounts: today's address, or one an older factory made. */
async function callsOwnAccount(deps: Deps, owner: Address, request: TxRequest): Promise<boolean> {
  if ((request.data ?? '0x') === '0x') return false
  if (isAddressEqual(request.to, accountAddressOf(getAddress(owner)))) return true
  const { rows } = await deps.store.query<{ address: Address }>('SELECT DISTINCT address FROM smart_accounts WHERE owner = $1', [getAddress(owner)])
  return rows.some((row) => isAddressEqual(row.address, request.to))
}

/**
 * The same rule for native value leaving in any shape (a smart account's operation: the sum of its
 * calls' values): above the app's or the user's threshold for this chain (the lower), a
 * `send-transaction` proof bound to `requestHash()` is spent, or the call is refused.
 */
export async function requireValueStepUp(c: Context<SandboxEnv>, deps: Deps, network: Network, value: bigint, requestHash: () => Hex, proof: unknown) {
  const app = c.get('app')
  const { chainId, nativeCurrency } = network.chain
  const claims = await authorize(c, deps.keys.jwtKey, 'wallet')
  // The user's own threshold (user-threshold.ts) may be stricter than the app's: the lower one holds.
  const appAbove = transactionStepUpAbove(app.settings, chainId, nativeCurrency.decimals)
  const above = lowerThreshold(appAbove, await userStepUpAbove(deps.store, claims.userId, chainId))
  if (above === undefined || value <= above) return
  const session = stepUpSession(claims)
  await requireStepUp(deps, app, session, 'send-transaction', proof, requestHash())
}
