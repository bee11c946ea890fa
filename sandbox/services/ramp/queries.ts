import type { Address, Hash } from 'viem'
import type { Store } from '../../infra/database/store.ts'
import type { App } from '../app-config/apps.ts'
import type { FaucetAsset } from '../chain/faucet.ts'
import type { OnrampQuote } from './pricing.ts'

// The ramp_accounts and onramp_orders tables. Orders are found by the hashes of their token and of
// the browser they were issued to (orders.ts makes both).

export async function insertRampAccount(store: Store, userId: string): Promise<void> {
  await store.query('INSERT INTO ramp_accounts (user_id) VALUES ($1) ON CONFLICT DO NOTHING', [userId])
}

export async function hasRampAccount(store: Store, userId: string): Promise<boolean> {
  const { rows } = await store.query('SELECT 1 FROM ramp_accounts WHERE user_id = $1', [userId])
  return rows.length > 0
}

export type OrderRow = {
  app_id: string
  environment: App['environment']
  receiver: Address
  chain_id: number
  asset: FaucetAsset
  amount: string
  quote: OnrampQuote
  used_at: Date | string | null
  expires_at: Date | string
  /** The ramp API's on-ramp order (ramp_orders) this page order completes, if any. */
  ramp_order_id: string | null
}

export type NewOrder = Pick<OrderRow, 'receiver' | 'chain_id' | 'asset' | 'amount' | 'quote'> & {
  tokenHash: string
  browserHash: string
  expiresAt: string
  rampOrderId?: string | undefined
}

export async function insertOrder(store: Store, app: App, order: NewOrder): Promise<void> {
  // Orders nobody paid are of no use a day after they expired.
  await store.query("DELETE FROM onramp_orders WHERE expires_at < now() - interval '1 day' AND ramp_order_id IS NULL")
  await store.query(
    `INSERT INTO onramp_orders (token_hash, browser_hash, app_id, environment, receiver, chain_id, asset, amount, quote, expires_at, ramp_order_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11)`,
    [
      order.tokenHash,
      order.browserHash,
      app.appId,
      app.environment,
      order.receiver,
      order.chain_id,
      order.asset,
      order.amount,
      JSON.stringify(order.quote),
      order.expiresAt,
      order.rampOrderId ?? null,
    ],
  )
}

/** Marks a live, unused order used, in one statement (two concurrent claims cannot both win); answers it. */
export async function redeemOrder(store: Store, tokenHash: string, browserHash: string): Promise<OrderRow | undefined> {
  const { rows } = await store.query<OrderRow>(
    `UPDATE onramp_orders SET used_at = now()
     WHERE token_hash = $1 AND browser_hash = $2 AND used_at IS NULL AND expires_at > now() RETURNING *`,
    [tokenHash, browserHash],
  )
  return rows[0]
}

export async function orderState(store: Store, tokenHash: string, browserHash: string) {
  const { rows } = await store.query<Pick<OrderRow, 'used_at' | 'expires_at'>>(
    'SELECT used_at, expires_at FROM onramp_orders WHERE token_hash = $1 AND browser_hash = $2',
    [tokenHash, browserHash],
  )
  return rows[0]
}

export async function payableOrderReceiver(store: Store, tokenHash: string, browserHash: string): Promise<Address | undefined> {
  const { rows } = await store.query<{ receiver: Address }>(
    'SELECT receiver FROM onramp_orders WHERE token_hash = $1 AND browser_hash = $2 AND used_at IS NULL AND expires_at > now()',
    [tokenHash, browserHash],
  )
  return rows[0]?.receiver
}

export async function setOrderTx(store: Store, tokenHash: string, txHash: Hash): Promise<void> {
  await store.query('UPDATE onramp_orders SET tx_hash = $2 WHERE token_hash = $1', [tokenHash, txHash])
  // The ramp API's order this page order completed, if any, shows the payout too.
  await store.query('UPDATE ramp_orders SET tx_hash = $2 WHERE id = (SELECT ramp_order_id FROM onramp_orders WHERE token_hash = $1)', [tokenHash, txHash])
}
