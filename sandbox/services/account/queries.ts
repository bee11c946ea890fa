import type { Address, Hex } from 'viem'
import type { Store } from '../../infra/database/store.ts'

// The wallets table as the account service writes it: one wallet per user, its key sealed twice
// (the signing copy and the server's recovery share; wallet-keys.ts).

export type Wallet = { id: string; userId: string; address: Address }

export async function findWallet(store: Store, userId: string): Promise<Wallet | undefined> {
  const { rows } = await store.query<{ id: string; user_id: string; address: Address }>('SELECT id, user_id, address FROM wallets WHERE user_id = $1', [userId])
  const row = rows[0]
  return row && { id: row.id, userId: row.user_id, address: row.address }
}

/** Throws a unique violation if the user already has a wallet. */
export async function insertWallet(store: Store, wallet: Wallet & { sealedKey: string; sealedRecoveryShare: string }): Promise<void> {
  await store.query('INSERT INTO wallets (id, user_id, address, encrypted_key, encrypted_recovery_share) VALUES ($1, $2, $3, $4, $5)', [
    wallet.id,
    wallet.userId,
    wallet.address,
    wallet.sealedKey,
    wallet.sealedRecoveryShare,
  ])
}

export async function recoveryShareOf(store: Store, userId: string) {
  const { rows } = await store.query<{ id: string; address: Hex; encrypted_recovery_share: string }>(
    'SELECT id, address, encrypted_recovery_share FROM wallets WHERE user_id = $1',
    [userId],
  )
  return rows[0]
}

export async function replaceSigningKey(store: Store, walletId: string, sealedKey: string): Promise<void> {
  await store.query('UPDATE wallets SET encrypted_key = $1 WHERE id = $2', [sealedKey, walletId])
}

/** The signing copy of the user's key, sealed, for export (the signing calls read it through their own cache). */
export async function sealedKeyOf(store: Store, userId: string) {
  const { rows } = await store.query<{ id: string; address: Address; encrypted_key: string }>(
    'SELECT id, address, encrypted_key FROM wallets WHERE user_id = $1',
    [userId],
  )
  return rows[0]
}
