import type { Address } from 'viem'
import { cachedRow, type Store } from '../../infra/database/store.ts'

// The wallets table as the signing calls and the permission switches see it (rows are created by
// the account service, account/queries.ts).

/** A wallet with its sealed signing key and whether it may sign. */
export type SigningRow = { id: string; user_id: string; address: Address; encrypted_key: string; permission_granted: boolean }

/**
 * Every signing call reads this row, so it is kept in memory until any statement writes the wallets
 * table (a permission switched off stops the very next call; see cachedRow), and for a second at most.
 */
export function signingRowOf(store: Store, userId: string): Promise<SigningRow | undefined> {
  return cachedRow(store, 'wallets', userId, async () => {
    const { rows } = await store.query<SigningRow>('SELECT id, user_id, address, encrypted_key, permission_granted FROM wallets WHERE user_id = $1', [userId])
    return rows[0]
  })
}

export async function permissionOf(store: Store, userId: string): Promise<{ id: string; address: string; permission_granted: boolean } | undefined> {
  const { rows } = await store.query<{ id: string; address: string; permission_granted: boolean }>(
    'SELECT id, address, permission_granted FROM wallets WHERE user_id = $1',
    [userId],
  )
  return rows[0]
}

export async function grantPermission(store: Store, walletId: string): Promise<void> {
  await store.query('UPDATE wallets SET permission_granted = true WHERE id = $1', [walletId])
}

/** Sets the signing permission of the wallet at `address` (any case); false when there is none. */
export async function setPermissionByAddress(store: Store, address: string, granted: boolean): Promise<boolean> {
  const { rowCount } = await store.query('UPDATE wallets SET permission_granted = $1 WHERE lower(address) = lower($2)', [granted, address])
  return rowCount > 0
}
