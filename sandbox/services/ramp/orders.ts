import { createHash, randomBytes } from 'node:crypto'
import type { Address, Hash } from 'viem'
import type { App } from '../app-config/apps.ts'
import type { Store } from '../../infra/database/store.ts'
import type { FaucetAsset } from '../chain/faucet.ts'
import type { OnrampQuote } from './pricing.ts'
import { insertOrder, orderState, payableOrderReceiver, setOrderTx, redeemOrder } from './queries.ts'
import { markOnrampPaid, matchingOnrampOrder } from './order-queries.ts'

// The hosted on-ramp page's orders: the GET issues a random single-use token for the quoted order,
// bound to the browser that loaded the page (a cookie); the POST that pays must bring both. Only
// hashes are stored, so the table alone cannot pay anything.

/** How long the order page may stay open before "Pay" is refused. */
export const orderLifetimeMs = 15 * 60 * 1000

export type OrderDraft = {
  receiver: Address
  chainId: number
  asset: FaucetAsset
  /** What the faucet pays out, in base units. */
  amount: bigint
  quote: OnrampQuote
}

export type Order = OrderDraft & {
  appId: string
  environment: App['environment']
  /** The ramp API's on-ramp order this page pays, if any. */
  rampOrderId: string | null
  /** That order's earlier payout failed: look for one that landed after all before paying again. */
  retry: boolean
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

export const newBrowserId = () => randomBytes(32).toString('base64url')
export const isBrowserId = (value: string | undefined): value is string => value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value)

/**
 * Stores the order and answers its token (only its hash is kept). A page opened from a ramp API
 * order's link (`orderId`) completes that order, when the link says exactly what was ordered.
 */
export async function createOrder(store: Store, app: App, browserId: string, draft: OrderDraft & { orderId?: string; fiatAmount?: string }): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  const rampOrderId = draft.orderId
    ? await matchingOnrampOrder(store, app.appId, app.environment, {
        id: draft.orderId,
        receiver: draft.receiver,
        chainId: draft.chainId,
        asset: draft.asset,
        fiat: draft.quote.currency,
        fiatAmount: draft.fiatAmount ?? '',
        cryptoAmount: draft.amount.toString(),
      })
    : undefined
  await insertOrder(store, app, {
    rampOrderId,
    tokenHash: sha256(token),
    browserHash: sha256(browserId),
    receiver: draft.receiver,
    chain_id: draft.chainId,
    asset: draft.asset,
    amount: draft.amount.toString(),
    quote: draft.quote,
    expiresAt: new Date(Date.now() + orderLifetimeMs).toISOString(),
  })
  return token
}

export type Claim = { ok: true; order: Order } | { ok: false; reason: 'used' | 'expired' | 'unknown' }

/**
 * Marks the order used, in one statement, so two concurrent POSTs of one token cannot both pay.
 * A token issued to another browser counts as unknown.
 */
export async function claimOrder(store: Store, token: string, browserId: string | undefined): Promise<Claim> {
  if (!token || !isBrowserId(browserId)) return { ok: false, reason: 'unknown' }
  const row = await redeemOrder(store, sha256(token), sha256(browserId))
  // Two pages of one API order: only the first payment pays (or, after a failed payout, the first retry).
  const claimed = row?.ramp_order_id ? await markOnrampPaid(store, row.ramp_order_id) : { retry: false }
  if (!claimed) return { ok: false, reason: 'used' }
  if (row) {
    const order: Order = {
      appId: row.app_id,
      environment: row.environment,
      receiver: row.receiver,
      chainId: row.chain_id,
      asset: row.asset,
      amount: BigInt(row.amount),
      quote: row.quote,
      rampOrderId: row.ramp_order_id,
      retry: claimed.retry,
    }
    return { ok: true, order }
  }
  const existing = await orderState(store, sha256(token), sha256(browserId))
  if (!existing) return { ok: false, reason: 'unknown' }
  return { ok: false, reason: existing.used_at ? 'used' : 'expired' }
}

/** The receiver of an order this browser may still pay, without claiming it (for the per-receiver limit). */
export async function payableReceiver(store: Store, token: string, browserId: string | undefined): Promise<Address | undefined> {
  if (!token || !isBrowserId(browserId)) return undefined
  return payableOrderReceiver(store, sha256(token), sha256(browserId))
}

export async function recordPayment(store: Store, token: string, txHash: Hash): Promise<void> {
  await setOrderTx(store, sha256(token), txHash)
}
