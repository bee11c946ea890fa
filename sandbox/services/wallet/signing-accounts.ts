import { bytesToHex, type Address } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { cachedRow, type Store } from '../../infra/database/store.ts'
import { decrypt } from '../../infra/keys.ts'

// A wallet's signing key as the signing calls reach it: its row of the wallets table (the sealed key
// and whether it may sign), then the account opened from that row. Both are read on every signing
// call and both are kept in memory (rows are created by the account service, account/queries.ts;
// the permission switches are in ./queries.ts).

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

/** Recently used signing accounts of one sandbox, by wallet id. */
export type SigningAccounts = { get(row: SigningRow, masterKey: Uint8Array): PrivateKeyAccount }

/**
 * Decrypting and deriving the public key costs more than the signature itself, so recently used
 * accounts stay in memory, keyed by the ciphertext they came from (a restored key replaces its entry).
 */
export function createSigningAccounts(maxAccounts = 1000): SigningAccounts {
  const accounts = new Map<string, { sealed: string; account: PrivateKeyAccount }>()
  return {
    get(row, masterKey) {
      const cached = accounts.get(row.id)
      if (cached?.sealed === row.encrypted_key) return cached.account
      const key = decrypt(masterKey, row.encrypted_key, `wallet-key:${row.id}`)
      const account = privateKeyToAccount(bytesToHex(key))
      key.fill(0)
      if (account.address !== row.address) throw new Error(`Wallet ${row.id}: stored key does not match its address`)
      accounts.delete(row.id)
      accounts.set(row.id, { sealed: row.encrypted_key, account })
      if (accounts.size > maxAccounts) accounts.delete(accounts.keys().next().value as string)
      return account
    },
  }
}
