import type { Store } from '../../infra/database/store.ts'

// The wallets table as the permission switches see it (rows are created by the account service,
// account/queries.ts; the signing calls read theirs through caller-wallet.ts).

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
