import type { Context } from 'hono'
import type { Address } from 'viem'
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
  const app = c.get('app')
  const { chainId, nativeCurrency } = network.chain
  const above = transactionStepUpAbove(app.settings, chainId, nativeCurrency.decimals)
  if (above === undefined || (request.value ?? 0n) <= above) return
  const session = stepUpSession(await authorize(c, deps.keys.jwtKey, 'wallet'))
  const hash = transactionRequestHash({ chainId, from, ...request })
  await requireStepUp(deps, app, session, 'send-transaction', proof, hash)
}
