import type { Address, Hash } from 'viem'
import type { Store } from '../../infra/database/store.ts'

// The smart_accounts, user_operations, gas_tanks and gas_tank_topups tables (migrations 006, 009 and 012).

export type AccountStatus = 'not_deployed' | 'deploying' | 'deployed'

export type AccountRow = {
  id: string
  app_id: string
  environment: string
  owner: Address
  owner_provider: string
  chain_id: number
  address: Address
  status: AccountStatus
}

export type AppRef = { appId: string; environment: string }

export async function insertAccount(store: Store, row: AccountRow): Promise<void> {
  await store.query(
    `INSERT INTO smart_accounts (id, app_id, environment, owner, owner_provider, chain_id, address, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (app_id, environment, owner, chain_id) DO NOTHING`,
    [row.id, row.app_id, row.environment, row.owner, row.owner_provider, row.chain_id, row.address, row.status],
  )
}

export async function accountsOf(store: Store, app: AppRef, owner: Address): Promise<AccountRow[]> {
  const { rows } = await store.query<AccountRow>('SELECT * FROM smart_accounts WHERE app_id = $1 AND environment = $2 AND owner = $3 ORDER BY chain_id', [
    app.appId,
    app.environment,
    owner,
  ])
  return rows
}

/** An account never deployed whose address an older factory computed gets the current factory's (smart-account/accounts.ts). */
export async function moveUndeployedAccount(store: Store, id: string, address: Address): Promise<void> {
  await store.query("UPDATE smart_accounts SET address = $2 WHERE id = $1 AND status <> 'deployed'", [id, address])
}

export async function accountById(store: Store, app: AppRef, id: string): Promise<AccountRow | undefined> {
  const { rows } = await store.query<AccountRow>('SELECT * FROM smart_accounts WHERE id = $1 AND app_id = $2 AND environment = $3', [
    id,
    app.appId,
    app.environment,
  ])
  return rows[0]
}

export async function setAccountStatus(store: Store, chainId: number, address: Address, status: AccountStatus): Promise<void> {
  await store.query('UPDATE smart_accounts SET status = $3 WHERE chain_id = $1 AND address = $2', [chainId, address, status])
}

/**
 * built: made by the service, waiting for the owner's signature; submitted: sent to this bundler;
 * paymaster_signed: sponsorship signed for an app through ERC-7677's pm_getPaymasterData, its cost set
 * aside, not sent to this bundler (whoever includes it, the chain watch charges it); included; failed.
 */
export type OpStatus = 'built' | 'submitted' | 'included' | 'failed' | 'paymaster_signed'

/** A user operation as stored: bigint fields as decimal strings (JSON). */
export type OpRow = {
  id: string
  hash: Hash
  chain_id: number
  sender: Address
  account_id: string | null
  app_id: string | null
  environment: string | null
  kind: string
  user_op: Record<string, string>
  sponsored: boolean
  max_cost: string
  status: OpStatus
  tx_hash: Hash | null
  receipt: OpReceipt | null
  reason: string | null
  /** Sponsored: what is set aside in the gas tank while the operation may still be included (wei, decimal). */
  reserved: string
  /** Sponsored: what the gas tank paid for it (its actualGasCost once on chain). */
  charged: string
  /** When its reservation ended (charged, or given back); null while open. */
  settled_at: Date | null
}

/** What the bundler learned once the operation was in a block (UserOperationEvent). */
export type OpReceipt = {
  success: boolean
  actualGasCost: string
  actualGasUsed: string
  nonce: string
  paymaster: Address
  blockNumber: string
  blockHash: Hash
  transactionHash: Hash
  reason?: string
}

/** Stores a new operation; false when one with the same hash is already stored. */
export async function insertOp(store: Store, row: Omit<OpRow, 'tx_hash' | 'receipt' | 'reason' | 'reserved' | 'charged' | 'settled_at'>): Promise<boolean> {
  const { rowCount } = await store.query(
    `INSERT INTO user_operations (id, hash, chain_id, sender, account_id, app_id, environment, kind, user_op, sponsored, max_cost, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12) ON CONFLICT (hash) DO NOTHING`,
    [
      row.id,
      row.hash,
      row.chain_id,
      row.sender,
      row.account_id,
      row.app_id,
      row.environment,
      row.kind,
      JSON.stringify(row.user_op),
      row.sponsored,
      row.max_cost,
      row.status,
    ],
  )
  return rowCount === 1
}

export async function opById(store: Store, id: string): Promise<OpRow | undefined> {
  const { rows } = await store.query<OpRow>('SELECT * FROM user_operations WHERE id = $1', [id])
  return rows[0]
}

export async function opByHash(store: Store, hash: string): Promise<OpRow | undefined> {
  const { rows } = await store.query<OpRow>('SELECT * FROM user_operations WHERE hash = $1', [hash.toLowerCase()])
  return rows[0]
}

/** Moves an operation from `built` to `submitted` with its signature, once: false when it had already moved. */
export async function claimForSubmit(store: Store, id: string, userOp: Record<string, string>): Promise<boolean> {
  const { rowCount } = await store.query(
    "UPDATE user_operations SET status = 'submitted', user_op = $2::jsonb, submitted_at = now() WHERE id = $1 AND status = 'built'",
    [id, JSON.stringify(userOp)],
  )
  return rowCount === 1
}

export async function releaseSubmit(store: Store, id: string): Promise<void> {
  await store.query("UPDATE user_operations SET status = 'built', submitted_at = NULL WHERE id = $1 AND status = 'submitted'", [id])
}

export async function submittedOps(store: Store, chainId: number): Promise<OpRow[]> {
  const { rows } = await store.query<OpRow>("SELECT * FROM user_operations WHERE chain_id = $1 AND status = 'submitted' ORDER BY submitted_at", [chainId])
  return rows
}

/**
 * Ends an operation, once. Failed: only a submitted one. Included: whatever it was (submitted, given
 * up on, or never sent by this bundler), because its UserOperationEvent is on chain. False when it did not move.
 */
export async function finishOp(
  store: Store,
  id: string,
  outcome: { status: 'included' | 'failed'; txHash?: Hash; receipt?: OpReceipt; reason?: string },
): Promise<boolean> {
  const from = outcome.status === 'included' ? "status <> 'included'" : "status = 'submitted'"
  const { rowCount } = await store.query(`UPDATE user_operations SET status = $2, tx_hash = $3, receipt = $4::jsonb, reason = $5 WHERE id = $1 AND ${from}`, [
    id,
    outcome.status,
    outcome.txHash ?? null,
    outcome.receipt ? JSON.stringify(outcome.receipt) : null,
    outcome.reason ?? null,
  ])
  return rowCount === 1
}

/**
 * Sponsored operations whose reservation is still open and that no bundle of ours is tracking: the
 * ones the bundler gave up on, and sponsorships signed through pm_getPaymasterData and never sent here.
 * Watched until the chain settles them.
 */
export async function unsettledFailedOps(store: Store, chainId: number): Promise<OpRow[]> {
  const { rows } = await store.query<OpRow>(
    "SELECT * FROM user_operations WHERE chain_id = $1 AND sponsored AND settled_at IS NULL AND status IN ('failed', 'paymaster_signed') ORDER BY submitted_at",
    [chainId],
  )
  return rows
}

/**
 * Whether any sponsored operation on this chain is still unsettled (built, signed, submitted or
 * failed, its reservation not yet charged or given back): the rows the chain watch can act on.
 */
export async function hasUnsettledSponsorships(store: Store, chainId: number): Promise<boolean> {
  const { rows } = await store.query<{ open: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM user_operations WHERE chain_id = $1 AND sponsored AND settled_at IS NULL) AS open',
    [chainId],
  )
  return rows[0]?.open === true
}

/** An app's open sponsorships (signed through pm_getPaymasterData, not sent here) for one account on one chain. */
export async function openSponsorships(store: Store, app: AppRef, chainId: number, sender: Address): Promise<OpRow[]> {
  const { rows } = await store.query<OpRow>(
    `SELECT * FROM user_operations WHERE chain_id = $1 AND sender = $2 AND status = 'paymaster_signed' AND app_id = $3 AND environment = $4
       AND settled_at IS NULL ORDER BY created_at`,
    [chainId, sender, app.appId, app.environment],
  )
  return rows
}

/** Moves a signed sponsorship to `submitted` when it is sent to this bundler (eth_sendUserOperation), once: false when it had already moved. */
export async function claimSponsorship(store: Store, id: string, userOp: Record<string, string>): Promise<boolean> {
  const { rowCount } = await store.query(
    "UPDATE user_operations SET status = 'submitted', kind = 'rpc', user_op = $2::jsonb WHERE id = $1 AND status = 'paymaster_signed' AND settled_at IS NULL",
    [id, JSON.stringify(userOp)],
  )
  return rowCount === 1
}

/** Puts a sponsorship the bundler refused back to `paymaster_signed` (still includable by anyone, still reserved). */
export async function releaseSponsorship(store: Store, id: string): Promise<void> {
  await store.query("UPDATE user_operations SET status = 'paymaster_signed', kind = 'paymaster' WHERE id = $1 AND status = 'submitted'", [id])
}

/** Takes back a signed sponsorship's row when its reservation was refused (its signature never handed out). */
export async function deleteUnreservedSponsorship(store: Store, id: string): Promise<void> {
  await store.query("DELETE FROM user_operations WHERE id = $1 AND reserved = 0 AND settled_at IS NULL AND status = 'paymaster_signed'", [id])
}

export async function pendingDeploys(store: Store, chainId: number, sender: Address): Promise<number> {
  const { rows } = await store.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM user_operations WHERE chain_id = $1 AND sender = $2 AND status = 'submitted' AND (user_op->>'factory') IS NOT NULL",
    [chainId, sender],
  )
  return rows[0]?.n ?? 0
}

export async function tankBalance(store: Store, app: AppRef, chainId: number): Promise<bigint> {
  const { rows } = await store.query<{ balance: string }>(
    'SELECT balance::text AS balance FROM gas_tanks WHERE app_id = $1 AND environment = $2 AND chain_id = $3',
    [app.appId, app.environment, chainId],
  )
  return BigInt(rows[0]?.balance ?? '0')
}

/** Gives a tank its first balance, once (seed apps start with some gas). */
export async function openTank(store: Store, app: AppRef, chainId: number, balance: bigint): Promise<void> {
  await store.query('INSERT INTO gas_tanks (app_id, environment, chain_id, balance) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING', [
    app.appId,
    app.environment,
    chainId,
    balance.toString(),
  ])
}

/** What the gas tank spent or holds for one account's sponsored operations of the last 24 hours (the per-user daily cap). */
export async function sponsoredLastDay(store: Store, app: AppRef, chainId: number, sender: Address): Promise<bigint> {
  const { rows } = await store.query<{ total: string }>(
    `SELECT coalesce(sum(reserved + charged), 0)::text AS total FROM user_operations
     WHERE app_id = $1 AND environment = $2 AND chain_id = $3 AND sender = $4 AND sponsored AND submitted_at > now() - interval '1 day'`,
    [app.appId, app.environment, chainId, sender],
  )
  return BigInt(rows[0]?.total ?? '0')
}

/**
 * Sets aside a sponsored operation's maximum cost in its app's gas tank and records it on the
 * operation, in one statement: false (nothing taken) when the tank holds less, when the account's
 * sponsored spending of the last 24 hours plus this would pass `cap`, or when the operation already
 * has (or had) a reservation. Several operations in flight can never spend more than the tank held.
 */
export async function reserveOp(
  store: Store,
  input: { id: string; app: AppRef; chainId: number; sender: Address; amount: bigint; cap: bigint | undefined },
): Promise<boolean> {
  const { rowCount } = await store.query(
    `WITH spent AS (
       SELECT coalesce(sum(reserved + charged), 0) AS total FROM user_operations
       WHERE app_id = $1 AND environment = $2 AND chain_id = $3 AND sender = $6 AND sponsored AND submitted_at > now() - interval '1 day'
     ), taken AS (
       UPDATE gas_tanks SET balance = balance - $4::numeric
       WHERE app_id = $1 AND environment = $2 AND chain_id = $3 AND balance >= $4::numeric
         AND ($7::numeric IS NULL OR (SELECT total FROM spent) + $4::numeric <= $7::numeric)
         AND EXISTS (SELECT 1 FROM user_operations WHERE id = $5 AND reserved = 0 AND charged = 0 AND settled_at IS NULL)
       RETURNING 1
     )
     UPDATE user_operations SET reserved = $4::numeric, max_cost = $4::numeric, submitted_at = coalesce(submitted_at, now())
     WHERE id = $5 AND EXISTS (SELECT 1 FROM taken)`,
    [input.app.appId, input.app.environment, input.chainId, input.amount.toString(), input.id, input.sender, input.cap?.toString() ?? null],
  )
  return rowCount === 1
}

/**
 * Ends a sponsored operation's reservation, once: the tank pays `charge` (its actualGasCost once on
 * chain; 0 when the chain shows it can never be included) and gets back the rest of what was set
 * aside. An operation included without a reservation is charged all the same, down to an empty tank.
 * False when it was already settled.
 */
export async function settleOp(store: Store, input: { id: string; app: AppRef; chainId: number; charge: bigint }): Promise<boolean> {
  const { rowCount } = await store.query(
    `WITH op AS (
       SELECT id, reserved FROM user_operations WHERE id = $4 AND settled_at IS NULL FOR UPDATE
     ), done AS (
       UPDATE user_operations u SET reserved = 0, charged = $5::numeric, settled_at = now() FROM op WHERE u.id = op.id RETURNING op.reserved AS held
     )
     UPDATE gas_tanks SET balance = GREATEST(balance + (SELECT held FROM done) - $5::numeric, 0)
     WHERE app_id = $1 AND environment = $2 AND chain_id = $3 AND EXISTS (SELECT 1 FROM done)`,
    [input.app.appId, input.app.environment, input.chainId, input.id, input.charge.toString()],
  )
  return rowCount === 1
}

/** Takes back a stored operation's row when its reservation was refused before anything was queued (the bundler endpoint's path). */
export async function deleteUnreserved(store: Store, id: string): Promise<void> {
  await store.query("DELETE FROM user_operations WHERE id = $1 AND reserved = 0 AND settled_at IS NULL AND status = 'submitted'", [id])
}

/** Credits a verified top-up transfer; false when this transaction was already credited. */
export async function creditTopUp(store: Store, app: AppRef, chainId: number, txHash: Hash, amount: bigint): Promise<boolean> {
  const { rowCount } = await store.query(
    'INSERT INTO gas_tank_topups (chain_id, tx_hash, app_id, environment, amount) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING',
    [chainId, txHash.toLowerCase(), app.appId, app.environment, amount.toString()],
  )
  if (rowCount !== 1) return false
  await store.query(
    `INSERT INTO gas_tanks (app_id, environment, chain_id, balance) VALUES ($1, $2, $3, $4)
     ON CONFLICT (app_id, environment, chain_id) DO UPDATE SET balance = gas_tanks.balance + EXCLUDED.balance`,
    [app.appId, app.environment, chainId, amount.toString()],
  )
  return true
}
