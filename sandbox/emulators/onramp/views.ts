import { formatUnits } from 'viem'
import type { Claim } from '../../services/ramp/orders.ts'
import { orderLifetimeMs } from '../../services/ramp/orders.ts'
import type { OnrampCrypto, OnrampQuote } from '../../services/ramp/pricing.ts'
import { escapeHtml } from '../page-view.ts'

// The bodies of the hosted on-ramp page (routes.ts); page-view.ts wraps them. Element ids are what
// tests and the README name.

const grouped = (amount: string) => Number(amount).toLocaleString('en-US', { maximumFractionDigits: 2 })

export type ConfirmView = {
  appName: string
  amount: string
  fiat: string
  received: bigint
  crypto: OnrampCrypto
  chainName: string
  receiver: string
  quote: OnrampQuote
  token: string
}

export function confirmView({ appName, amount, fiat, received, crypto, chainName, receiver, quote, token }: ConfirmView): string {
  const minutes = orderLifetimeMs / 60_000
  return `<h1>Confirm your order</h1>
<p class="note">${escapeHtml(appName)} · sandbox on-ramp</p>
<dl>
<dt>You pay</dt><dd id="pay-amount">${escapeHtml(`${grouped(amount)} ${fiat}`)}</dd>
<dt>You receive</dt><dd id="receive-amount">≈ ${escapeHtml(`${formatUnits(received, 18)} ${crypto.symbol}`)}</dd>
<dt>Network</dt><dd id="network"><img src="/icons/chains/${escapeHtml(crypto.network)}.svg" alt="" width="16" height="16"> ${escapeHtml(`${chainName} (chain ${crypto.chainId})`)}</dd>
<dt>To wallet</dt><dd><code id="receiver">${escapeHtml(receiver)}</code></dd>
<dt>Fee (included)</dt><dd id="fee">${escapeHtml(`${grouped(quote.total_fee_amount)} ${fiat}`)}</dd>
<dt>Rate</dt><dd id="rate">${escapeHtml(`1 ${crypto.symbol} = ${quote.rate_amount.toLocaleString('en-US')} ${fiat}`)}</dd>
</dl>
<form method="post" action="/onramp"><input type="hidden" name="order" value="${escapeHtml(token)}">
<button type="submit">Pay with sandbox bank</button></form>
<p class="note">Sandbox: no money moves. The sandbox's faucet account sends the coin on the local chain. This order is valid for ${minutes} minutes.</p>`
}

export type PaidView = { amount: bigint; coin: string; receiver: string; chainId: number; chainName: string; hash: string }

export const paidView = ({ amount, coin, receiver, chainId, chainName, hash }: PaidView) => `<h1>Payment received</h1>
<p id="paid">${escapeHtml(`${formatUnits(amount, 18)} ${coin}`)} sent to <code id="receiver">${escapeHtml(receiver)}</code> on ${escapeHtml(`${chainName} (chain ${chainId})`)}.</p>
<p>Transaction <code id="tx-hash">${escapeHtml(hash)}</code></p>
<p class="note">You can close this tab; the wallet shows the new balance.</p>`

/** Every problem of a bad buy link at once, so it is fixed in one go. */
export const invalidOrderView = (problems: readonly string[]) =>
  `<h1>Invalid order</h1><p>This buy link cannot be used:</p><ul id="problems">${problems.map((problem) => `<li>${escapeHtml(problem)}</li>`).join('')}</ul>`

export const tooManyView = (reason: string, message: string) =>
  `<h1>Too many requests</h1><p id="limit">${escapeHtml(reason)}</p><p>${escapeHtml(message)}.</p>`

export const forbiddenView = '<h1>Forbidden</h1><p>Orders are paid from the order page only.</p>'

/** What to do after a failed payout: an order of the ramp API is paid again from its link; a purchase from the wallet starts over. */
const retryHint = (fromLink: boolean) =>
  fromLink ? 'The order is marked failed: open its payment link again to retry.' : 'Start a new purchase from the wallet.'

export const faucetLowView = (fromLink: boolean) => `<h1>The sandbox faucet is low on funds</h1>
<p>Nothing was sent: this payout would eat into what the faucet keeps for funding new wallets. ${retryHint(fromLink)}</p>
<p class="note">Sandbox: a fresh data folder starts the faucet full again.</p>`

export const paymentFailedView = (fromLink: boolean) => `<h1>Payment failed</h1><p>The payout could not be sent. ${retryHint(fromLink)}</p>`

export const paymentInProgressView = `<h1>Payment in progress</h1>
<p>The payout of this order is still being sent, so nothing more was sent. Its status shows when it lands; if it fails, open the payment link again.</p>`

type Refusal = Extract<Claim, { ok: false }>['reason']

export const claimTitles: Record<Refusal, string> = {
  used: 'Order already used',
  expired: 'Order expired',
  unknown: 'Unknown order',
}
const claimTexts: Record<Refusal, string> = {
  used: 'This order has already been paid. Start a new purchase from the wallet.',
  expired: 'This order is too old to pay. Start a new purchase from the wallet.',
  unknown: 'This order does not exist or was opened in another browser. Start a new purchase from the wallet.',
}

export const refusedClaimView = (reason: Refusal) => `<h1>${claimTitles[reason]}</h1><p>${claimTexts[reason]}</p>`
