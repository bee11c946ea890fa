import type { Address, Hash } from 'viem'
import type { Store } from '../../infra/database/store.ts'
import type { App } from '../app-config/apps.ts'
import type { FaucetAsset } from '../chain/faucet.ts'

// The ramp_orders and ramp_recipients tables (migration 007): the ramp API's orders and off-ramp
// recipients. Every query is scoped to one app and environment, so one app never reads another's.

export type Direction = 'onramp' | 'offramp'

export type RampOrderRow = {
  id: string
  app_id: string
  environment: string
  direction: Direction
  crypto_id: string
  chain_id: number
  asset: FaucetAsset
  fiat: string
  fiat_amount: string
  crypto_amount: string
  quote: Record<string, unknown>
  receiver: Address | null
  recipient_id: string | null
  deposit_address: Address | null
  start_block: string | null
  paid_at: Date | string | null
  tx_hash: Hash | null
  expires_at: Date | string
  created_at: Date | string
  /** Off-ramp: the recipient's bank details when the order was made (migration 008); the payout goes there. */
  payout_to: PayoutTo | null
  /** On-ramp: when and why the last payout failed; the order's link may pay it again. */
  failed_at: Date | string | null
  failure_reason: string | null
}

type PayoutTo = { bank: string; accountNumber: string; name: string }

export type RecipientRow = {
  id: string
  bank: string
  account_number: string
  name: string
  deleted_at: Date | string | null
  created_at: Date | string
  updated_at: Date | string
}

const scope = (app: App) => [app.appId, app.environment]

type NewRampOrder = Omit<RampOrderRow, 'app_id' | 'environment' | 'paid_at' | 'tx_hash' | 'created_at' | 'failed_at' | 'failure_reason'>

export async function insertRampOrder(store: Store, app: App, order: NewRampOrder) {
  await store.query(
    `INSERT INTO ramp_orders (id, app_id, environment, direction, crypto_id, chain_id, asset, fiat, fiat_amount, crypto_amount, quote,
       receiver, recipient_id, deposit_address, start_block, expires_at, payout_to)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb, $12, $13, $14, $15, $16, $17::jsonb)`,
    [
      order.id,
      ...scope(app),
      order.direction,
      order.crypto_id,
      order.chain_id,
      order.asset,
      order.fiat,
      order.fiat_amount,
      order.crypto_amount,
      JSON.stringify(order.quote),
      order.receiver,
      order.recipient_id,
      order.deposit_address,
      order.start_block,
      order.expires_at,
      order.payout_to === null ? null : JSON.stringify(order.payout_to),
    ],
  )
}

/** An app's off-ramp orders still waiting for their deposit before their deadline (what maxWaitingOfframpOrders caps). */
export async function countWaitingOfframp(store: Store, app: App): Promise<number> {
  const { rows } = await store.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ramp_orders WHERE app_id = $1 AND environment = $2 AND direction = 'offramp' AND paid_at IS NULL AND expires_at > now()`,
    scope(app),
  )
  return rows[0]?.n ?? 0
}

export async function findRampOrder(store: Store, app: App, direction: Direction, id: string): Promise<RampOrderRow | undefined> {
  if (!isRampId(id)) return undefined
  const { rows } = await store.query<RampOrderRow>('SELECT * FROM ramp_orders WHERE id = $1 AND app_id = $2 AND environment = $3 AND direction = $4', [
    id,
    ...scope(app),
    direction,
  ])
  return rows[0]
}

/** How long a paid on-ramp order may wait for its payout before it counts as failed (the sandbox stopped mid-payout). */
export const payoutDeadlineMs = 5 * 60 * 1000

/** A paid on-ramp order without a payout: its payout failed, or did not come within payoutDeadlineMs. */
const payoutFailed = `tx_hash IS NULL AND paid_at IS NOT NULL AND (failed_at IS NOT NULL OR paid_at <= now() - interval '${payoutDeadlineMs / 1000} seconds')`

/**
 * An on-ramp order its link may (still, or again) pay: unpaid and live, or paid without a payout
 * (failed). A failed order stays payable after its deadline: its buyer already paid once.
 */
const onrampPayable = `direction = 'onramp' AND tx_hash IS NULL AND ((paid_at IS NULL AND expires_at > now()) OR (${payoutFailed}))`

/** The SQL condition of each order status (the status is derived from the row, never stored). */
export const statusConditions: Record<string, string> = {
  // On-ramp
  pending: 'paid_at IS NULL AND expires_at > now()',
  paid: `direction = 'onramp' AND paid_at IS NOT NULL AND NOT (tx_hash IS NOT NULL OR ${payoutFailed})`,
  completed: "direction = 'onramp' AND tx_hash IS NOT NULL",
  failed: `direction = 'onramp' AND ${payoutFailed}`,
  expired: 'paid_at IS NULL AND expires_at <= now()',
  // Off-ramp
  paid_out: "direction = 'offramp' AND paid_at IS NOT NULL",
}

export async function listRampOrders(store: Store, app: App, direction: Direction, options: { status?: string; page: number; limit: number }) {
  const where = `app_id = $1 AND environment = $2 AND direction = $3${options.status ? ` AND ${statusConditions[options.status]}` : ''}`
  const { rows: counted } = await store.query<{ total: number }>(`SELECT count(*)::int AS total FROM ramp_orders WHERE ${where}`, [...scope(app), direction])
  const { rows } = await store.query<RampOrderRow>(`SELECT * FROM ramp_orders WHERE ${where} ORDER BY created_at DESC, id LIMIT $4 OFFSET $5`, [
    ...scope(app),
    direction,
    options.limit,
    (options.page - 1) * options.limit,
  ])
  return { rows, total: counted[0]?.total ?? 0 }
}

/**
 * Off-ramp orders the watcher looks at: no deposit yet, and not expired longer than `graceMs` ago
 * (all apps when `app` is undefined: the watcher's timer).
 */
export async function waitingDeposits(store: Store, graceMs: number, app?: App): Promise<RampOrderRow[]> {
  const { rows } = await store.query<RampOrderRow>(
    `SELECT * FROM ramp_orders WHERE direction = 'offramp' AND paid_at IS NULL AND expires_at > $1${app ? ' AND app_id = $2 AND environment = $3' : ''}`,
    [new Date(Date.now() - graceMs).toISOString(), ...(app ? scope(app) : [])],
  )
  return rows
}

/** Credits an off-ramp order's deposit, once: a later check (or a later transfer) never changes the recorded one. */
export async function markDeposited(store: Store, id: string, txHash: Hash | null): Promise<void> {
  await store.query('UPDATE ramp_orders SET paid_at = now(), tx_hash = $2 WHERE id = $1 AND paid_at IS NULL', [id, txHash])
}

/** The payable API on-ramp order (onrampPayable) a hosted page's link names, if the page stands for exactly it (same app, receiver, coin, chain, fiat amount and payout). */
export async function matchingOnrampOrder(
  store: Store,
  appId: string,
  environment: string,
  order: { id: string; receiver: Address; chainId: number; asset: FaucetAsset; fiat: string; fiatAmount: string; cryptoAmount: string },
): Promise<string | undefined> {
  if (!isRampId(order.id)) return undefined
  const { rows } = await store.query<{ id: string }>(
    `SELECT id FROM ramp_orders WHERE id = $1 AND app_id = $2 AND environment = $3 AND receiver = $4 AND chain_id = $5 AND asset = $6
       AND fiat = $7 AND fiat_amount = $8 AND crypto_amount = $9 AND ${onrampPayable}`,
    [order.id, appId, environment, order.receiver, order.chainId, order.asset, order.fiat, order.fiatAmount, order.cryptoAmount],
  )
  return rows[0]?.id
}

/** The shape of the ids this service hands out (onr_, ofr_, rcp_ and 24 hex digits): anything else is no order, before a query. */
export const isRampId = (id: string | undefined): id is string => typeof id === 'string' && /^(onr|ofr|rcp)_[0-9a-f]{24}$/.test(id)

/**
 * Marks an API on-ramp order paid, in one statement (two pages cannot both claim it): false when it
 * is not payable (paid and paying out or paid out, or expired); `retry` when an earlier payout had
 * failed, so the caller looks for one that landed after all before paying again.
 */
export async function markOnrampPaid(store: Store, id: string): Promise<false | { retry: boolean }> {
  const { rows } = await store.query<{ retry: boolean }>(
    `WITH before AS (SELECT paid_at FROM ramp_orders WHERE id = $1)
     UPDATE ramp_orders SET paid_at = now(), failed_at = NULL, failure_reason = NULL WHERE id = $1 AND ${onrampPayable}
     RETURNING (SELECT paid_at IS NOT NULL FROM before) AS retry`,
    [id],
  )
  return rows[0] ? { retry: rows[0].retry } : false
}

/** Records why an API on-ramp order's payout failed: the order is 'failed', and its link may pay it again. */
export async function markOnrampFailed(store: Store, id: string, reason: string): Promise<void> {
  await store.query('UPDATE ramp_orders SET failed_at = now(), failure_reason = $2 WHERE id = $1 AND tx_hash IS NULL', [id, reason])
}

/** The block an API on-ramp order was made at, when known (orders made before it was recorded have none). */
export async function onrampStartBlock(store: Store, id: string): Promise<bigint | undefined> {
  const { rows } = await store.query<{ start_block: string | null }>("SELECT start_block FROM ramp_orders WHERE id = $1 AND direction = 'onramp'", [id])
  const value = rows[0]?.start_block
  return value ? BigInt(value) : undefined
}

/** Whether a transaction hash is already recorded as some on-ramp payout (so it is not counted for another order). */
export async function isRecordedPayout(store: Store, hash: Hash): Promise<boolean> {
  const { rows } = await store.query('SELECT 1 FROM ramp_orders WHERE tx_hash = $1 UNION ALL SELECT 1 FROM onramp_orders WHERE tx_hash = $1 LIMIT 1', [hash])
  return rows.length > 0
}

export async function insertRecipient(store: Store, app: App, recipient: Pick<RecipientRow, 'id' | 'bank' | 'account_number' | 'name'>) {
  const { rows } = await store.query<RecipientRow>(
    `INSERT INTO ramp_recipients (id, app_id, environment, bank, account_number, name) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [recipient.id, ...scope(app), recipient.bank, recipient.account_number, recipient.name],
  )
  return rows[0]!
}

export async function findRecipient(store: Store, app: App, id: string, options: { includeDeleted?: boolean } = {}): Promise<RecipientRow | undefined> {
  if (!isRampId(id)) return undefined
  const { rows } = await store.query<RecipientRow>(
    `SELECT * FROM ramp_recipients WHERE id = $1 AND app_id = $2 AND environment = $3${options.includeDeleted ? '' : ' AND deleted_at IS NULL'}`,
    [id, ...scope(app)],
  )
  return rows[0]
}

export async function listRecipients(store: Store, app: App, page: number, limit: number) {
  const where = 'app_id = $1 AND environment = $2 AND deleted_at IS NULL'
  const { rows: counted } = await store.query<{ total: number }>(`SELECT count(*)::int AS total FROM ramp_recipients WHERE ${where}`, scope(app))
  const { rows } = await store.query<RecipientRow>(`SELECT * FROM ramp_recipients WHERE ${where} ORDER BY created_at DESC, id LIMIT $3 OFFSET $4`, [
    ...scope(app),
    limit,
    (page - 1) * limit,
  ])
  return { rows, total: counted[0]?.total ?? 0 }
}

export async function updateRecipient(store: Store, app: App, id: string, fields: Partial<Pick<RecipientRow, 'bank' | 'account_number' | 'name'>>) {
  if (!isRampId(id)) return undefined
  const { rows } = await store.query<RecipientRow>(
    `UPDATE ramp_recipients SET bank = coalesce($4, bank), account_number = coalesce($5, account_number), name = coalesce($6, name), updated_at = now()
     WHERE id = $1 AND app_id = $2 AND environment = $3 AND deleted_at IS NULL RETURNING *`,
    [id, ...scope(app), fields.bank ?? null, fields.account_number ?? null, fields.name ?? null],
  )
  return rows[0]
}

export async function deleteRecipient(store: Store, app: App, id: string): Promise<boolean> {
  if (!isRampId(id)) return false
  const { rows } = await store.query(
    'UPDATE ramp_recipients SET deleted_at = now() WHERE id = $1 AND app_id = $2 AND environment = $3 AND deleted_at IS NULL RETURNING id',
    [id, ...scope(app)],
  )
  return rows.length > 0
}
