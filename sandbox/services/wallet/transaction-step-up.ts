import type { Context } from 'hono'
import type { Address, Hex } from 'viem'
import { transactionRequestHash } from '../../../sdk/wallet/transaction-hash.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { transactionStepUpAbove } from '../app-config/step-up-setting.ts'
import { authorize } from '../auth/app-guard.ts'
import type { Network } from '../chain/networks.ts'
import { requireStepUp, stepUpSession } from '../step-up/step-up.ts'
import type { TxRequest } from './tx-fields.ts'

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
  await requireValueStepUp(c, deps, network, request.value ?? 0n, () => transactionRequestHash({ chainId, from, ...request }), proof)
}

/**
 * The same rule for native value leaving in any shape (a smart account's operation: the sum of its
 * calls' values): above the app's threshold for this chain, a `send-transaction` proof bound to
 * `requestHash()` is spent, or the call is refused.
 */
export async function requireValueStepUp(c: Context<SandboxEnv>, deps: Deps, network: Network, value: bigint, requestHash: () => Hex, proof: unknown) {
  const app = c.get('app')
  const { chainId, nativeCurrency } = network.chain
  const above = transactionStepUpAbove(app.settings, chainId, nativeCurrency.decimals)
  if (above === undefined || value <= above) return
  const session = stepUpSession(await authorize(c, deps.keys.jwtKey, 'wallet'))
  await requireStepUp(deps, app, session, 'send-transaction', proof, requestHash())
}
