import { randomUUID } from 'node:crypto'
import { hexToBytes, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts'
import type { Store } from '../../infra/database/store.ts'
import { encrypt } from '../../infra/keys.ts'
import { insertWallet, type Wallet } from './queries.ts'
import { splitKey } from './recovery.ts'

/** A fresh key pair, before it is stored: the caller funds the address first, then saves it. */
export function newKey() {
  const privateKey = generatePrivateKey()
  return { privateKey, address: privateKeyToAddress(privateKey) }
}

/** Stores the key encrypted (signing copy) plus the server's recovery share; returns secret0 for the user. Throws a unique violation if the user already has a wallet. */
export async function saveWallet(store: Store, masterKey: Uint8Array, userId: string, key: { privateKey: Hex; address: Address }) {
  const id = randomUUID()
  const { secret0, serverShare } = splitKey(key.privateKey)
  await insertWallet(store, {
    id,
    userId,
    address: key.address,
    sealedKey: encrypt(masterKey, hexToBytes(key.privateKey), `wallet-key:${id}`),
    sealedRecoveryShare: encrypt(masterKey, serverShare, `recovery-share:${id}`),
  })
  return { wallet: { id, userId, address: key.address } satisfies Wallet, secret0 }
}
