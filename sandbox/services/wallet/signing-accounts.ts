import { bytesToHex } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { decrypt } from '../../infra/keys.ts'
import type { SigningRow } from './queries.ts'

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
