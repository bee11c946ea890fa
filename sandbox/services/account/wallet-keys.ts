import { randomUUID } from 'node:crypto'
import { hexToBytes, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import type { Store } from '../../infra/database/store.ts'
import { encrypt } from '../../infra/keys.ts'
import { splitKey } from './recovery.ts'

export type Wallet = { id: string; userId: string; address: Address }

type WalletRow = { id: string; user_id: string; address: Address }

export async function findWallet(store: Store, userId: string): Promise<Wallet | undefined> {
  const { rows } = await store.query<WalletRow>('SELECT id, user_id, address FROM wallets WHERE user_id = $1', [userId])
  const row = rows[0]
  return row && { id: row.id, userId: row.user_id, address: row.address }
}

/** A fresh key pair, before it is stored: the caller funds the address first, then saves it. */
export function newKey() {
  const privateKey = generatePrivateKey()
  return { privateKey, address: privateKeyToAddress(privateKey) }
}

/** Stores the key encrypted (signing copy) plus the server's recovery share; returns secret0 for the user. Throws a unique violation if the user already has a wallet. */
export async function saveWallet(store: Store, masterKey: Uint8Array, userId: string, key: { privateKey: Hex; address: Address }) {
  const id = randomUUID()
  const { secret0, serverShare } = splitKey(key.privateKey)
  await store.query(
    'INSERT INTO wallets (id, user_id, address, encrypted_key, encrypted_recovery_share) VALUES ($1, $2, $3, $4, $5)',
    [id, userId, key.address, encrypt(masterKey, hexToBytes(key.privateKey), `wallet-key:${id}`), encrypt(masterKey, serverShare, `recovery-share:${id}`)],
  )
  return { wallet: { id, userId, address: key.address } satisfies Wallet, secret0 }
}
