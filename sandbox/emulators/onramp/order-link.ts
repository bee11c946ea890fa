import { getAddress, isAddress, type Address } from 'viem'
import type { Deps } from '../../context.ts'
import type { App } from '../../services/app-config/apps.ts'
import { findAppByRampClientSecret } from '../../services/app-config/queries.ts'
import { amountProblem, fiats, isFiat, type OnrampCrypto, onrampCryptos } from '../../services/ramp/pricing.ts'

/** The parameters of a buy link (GET /onramp?clientSecret&receiverWalletAddress&inputAmount&inputCurrency&outputCurrency). */
export type OrderLink = { clientSecret: string; receiver: string; amount: string; fiat: string; cryptoId: string }

export type CheckedLink =
  | { ok: true; app: App; crypto: OnrampCrypto; receiver: Address; amount: string; fiat: string; cryptoId: string }
  | { ok: false; problems: string[] }

/** Every problem of a buy link at once, so a wrong link is fixed in one go. */
export async function checkOrderLink(deps: Deps, link: OrderLink): Promise<CheckedLink> {
  const { clientSecret, receiver, amount, fiat, cryptoId } = link
  const crypto = onrampCryptos(deps.chains, deps.origin()).find((entry) => entry.id === cryptoId)
  const problems: string[] = []
  const app = clientSecret ? await findAppByRampClientSecret(deps.store, clientSecret) : undefined
  if (!clientSecret) problems.push('clientSecret is required')
  else if (!app) problems.push('clientSecret is not the ramp client secret of any app')
  if (!isAddress(receiver)) problems.push('receiverWalletAddress must be an EVM address (0x and 40 hex digits)')
  const amountIssue = amountProblem(amount, isFiat(fiat) ? fiat : undefined, 'inputAmount')
  if (amountIssue) problems.push(amountIssue)
  if (!isFiat(fiat)) problems.push(`inputCurrency must be one of ${fiats.map((entry) => entry.id).join(', ')}`)
  if (!crypto) problems.push('outputCurrency must be a crypto id from /v1/reference/cryptos (like eth-local-1)')
  if (!app || !crypto || problems.length) return { ok: false, problems }
  return { ok: true, app, crypto, receiver: getAddress(receiver), amount, fiat, cryptoId }
}
