import { createHash, randomBytes } from 'node:crypto'
import type { Address, Hash } from 'viem'
import type { App } from '../app-config/apps.ts'
import type { Store } from '../../infra/database/store.ts'
import type { FaucetAsset } from '../chain/faucet.ts'
import type { OnrampQuote } from './pricing.ts'

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

export type Order = OrderDraft & { appId: string; environment: App['environment'] }

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

export const newBrowserId = () => randomBytes(32).toString('base64url')
export const isBrowserId = (value: string | undefined): value is string => value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value)

/** Stores the order and answers its token (only its hash is kept). */
export async function createOrder(store: Store, app: App, browserId: string, draft: OrderDraft): Promise<string> {
  const token = randomBytes(32).toString('base64url')
  // Orders nobody paid are of no use a day after they expired.
  await store.query("DELETE FROM onramp_orders WHERE expires_at < now() - interval '1 day'")
  await store.query(
    `INSERT INTO onramp_orders (token_hash, browser_hash, app_id, environment, receiver, chain_id, asset, amount, quote, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10)`,
    [
      sha256(token),
      sha256(browserId),
      app.appId,
      app.environment,
      draft.receiver,
      draft.chainId,
      draft.asset,
      draft.amount.toString(),
      JSON.stringify(draft.quote),
      new Date(Date.now() + orderLifetimeMs).toISOString(),
    ],
  )
  return token
}

type OrderRow = {
  app_id: string
  environment: App['environment']
  receiver: Address
  chain_id: number
  asset: FaucetAsset
  amount: string
  quote: OnrampQuote
  used_at: Date | string | null
  expires_at: Date | string
}

export type Claim = { ok: true; order: Order } | { ok: false; reason: 'used' | 'expired' | 'unknown' }

/**
 * Marks the order used, in one statement, so two concurrent POSTs of one token cannot both pay.
 * A token issued to another browser counts as unknown.
 */
export async function claimOrder(store: Store, token: string, browserId: string | undefined): Promise<Claim> {
  if (!token || !isBrowserId(browserId)) return { ok: false, reason: 'unknown' }
  const { rows } = await store.query<OrderRow>(
    `UPDATE onramp_orders SET used_at = now()
     WHERE token_hash = $1 AND browser_hash = $2 AND used_at IS NULL AND expires_at > now() RETURNING *`,
    [sha256(token), sha256(browserId)],
  )
  const row = rows[0]
  if (row) {
    const order: Order = {
      appId: row.app_id,
      environment: row.environment,
      receiver: row.receiver,
      chainId: row.chain_id,
      asset: row.asset,
      amount: BigInt(row.amount),
      quote: row.quote,
    }
    return { ok: true, order }
  }
  const { rows: found } = await store.query<OrderRow>('SELECT used_at, expires_at FROM onramp_orders WHERE token_hash = $1 AND browser_hash = $2', [
    sha256(token),
    sha256(browserId),
  ])
  const existing = found[0]
  if (!existing) return { ok: false, reason: 'unknown' }
  return { ok: false, reason: existing.used_at ? 'used' : 'expired' }
}

/** The receiver of an order this browser may still pay, without claiming it (for the per-receiver limit). */
export async function payableReceiver(store: Store, token: string, browserId: string | undefined): Promise<Address | undefined> {
  if (!token || !isBrowserId(browserId)) return undefined
  const { rows } = await store.query<{ receiver: Address }>(
    'SELECT receiver FROM onramp_orders WHERE token_hash = $1 AND browser_hash = $2 AND used_at IS NULL AND expires_at > now()',
    [sha256(token), sha256(browserId)],
  )
  return rows[0]?.receiver
}

export async function recordPayment(store: Store, token: string, txHash: Hash): Promise<void> {
  await store.query('UPDATE onramp_orders SET tx_hash = $2 WHERE token_hash = $1', [sha256(token), txHash])
}
