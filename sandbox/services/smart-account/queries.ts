import type { Address, Hash } from 'viem'
import type { Store } from '../../infra/database/store.ts'

// The smart_accounts, user_operations, gas_tanks and gas_tank_topups tables (migration 006).

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

export type OpStatus = 'built' | 'submitted' | 'included' | 'failed'

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
export async function insertOp(store: Store, row: Omit<OpRow, 'tx_hash' | 'receipt' | 'reason'>): Promise<boolean> {
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

/** Ends a submitted operation, once: false when it was not (or no longer) submitted. */
export async function finishOp(
  store: Store,
  id: string,
  outcome: { status: 'included' | 'failed'; txHash?: Hash; receipt?: OpReceipt; reason?: string },
): Promise<boolean> {
  const { rowCount } = await store.query(
    "UPDATE user_operations SET status = $2, tx_hash = $3, receipt = $4::jsonb, reason = $5 WHERE id = $1 AND status = 'submitted'",
    [id, outcome.status, outcome.txHash ?? null, outcome.receipt ? JSON.stringify(outcome.receipt) : null, outcome.reason ?? null],
  )
  return rowCount === 1
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

/**
 * Sets aside a sponsored operation's maximum cost, atomically: false (nothing taken) when the tank
 * holds less. Several operations in flight can never spend more than the tank held.
 */
export async function reserveTank(store: Store, app: AppRef, chainId: number, amount: bigint): Promise<boolean> {
  const { rowCount } = await store.query(
    'UPDATE gas_tanks SET balance = balance - $4::numeric WHERE app_id = $1 AND environment = $2 AND chain_id = $3 AND balance >= $4::numeric',
    [app.appId, app.environment, chainId, amount.toString()],
  )
  return rowCount === 1
}

/** Gives back what a reservation did not use (the unused part of an included operation, or all of a failed one). */
export async function refundTank(store: Store, app: AppRef, chainId: number, amount: bigint): Promise<void> {
  if (amount <= 0n) return
  await store.query('UPDATE gas_tanks SET balance = balance + $4::numeric WHERE app_id = $1 AND environment = $2 AND chain_id = $3', [
    app.appId,
    app.environment,
    chainId,
    amount.toString(),
  ])
}

export async function setMaxCost(store: Store, id: string, maxCost: bigint): Promise<void> {
  await store.query('UPDATE user_operations SET max_cost = $2 WHERE id = $1', [id, maxCost.toString()])
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
