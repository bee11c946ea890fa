import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bytesToHex, type Address } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'

export type Keys = {
  /** AES-256-GCM key for secrets at rest (wallet keys, recovery shares). */
  readonly masterKey: Uint8Array
  /** HS256 key for the JWTs the sandbox issues. */
  readonly jwtKey: Uint8Array
  /**
   * secp256k1 key of the faucet account on the local chains (funds new wallets, pays ramp orders,
   * the demo tokens' minter). Generated here rather than taken from anvil's dev accounts, whose keys
   * are public.
   */
  readonly faucetKey: Uint8Array
  /** secp256k1 key of the ERC-4337 bundler: sends every `handleOps` and receives gas-tank top-ups (the gas pool). */
  readonly bundlerKey: Uint8Array
  /** secp256k1 key the verifying paymaster trusts: it signs each sponsorship. */
  readonly paymasterKey: Uint8Array
}

export function loadKeys(dataDir: string, masterKeyHex = process.env.SANDBOX_MASTER_KEY): Keys {
  const masterKey = masterKeyHex ? parseKeyHex(masterKeyHex, 'SANDBOX_MASTER_KEY') : keyFile(join(dataDir, 'master.key'))
  return {
    masterKey,
    jwtKey: keyFile(join(dataDir, 'jwt.key')),
    faucetKey: keyFile(join(dataDir, 'faucet.key')),
    bundlerKey: keyFile(join(dataDir, 'bundler.key')),
    paymasterKey: keyFile(join(dataDir, 'paymaster.key')),
  }
}

function parseKeyHex(value: string, name: string): Uint8Array {
  const hex = value.trim().replace(/^0x/i, '')
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${name} must be 32 bytes as 64 hex characters`)
  return Uint8Array.from(Buffer.from(hex, 'hex'))
}

/** A 32-byte key generated on first use and kept in the data folder, so tokens and ciphertexts survive restarts. */
function keyFile(path: string): Uint8Array {
  try {
    return parseKeyHex(readFileSync(path, 'utf8'), path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const key = randomBytes(32)
  writeFileSync(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' })
  return Uint8Array.from(key)
}

/**
 * AES-256-GCM. `context` is bound as associated data (e.g. the wallet id), so a ciphertext copied
 * onto another row does not decrypt. Format: `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
export function encrypt(key: Uint8Array, plaintext: Uint8Array, context: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(Buffer.from(context))
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()])
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.')
}

export function decrypt(key: Uint8Array, sealed: string, context: string): Uint8Array {
  const [version, iv, tag, ciphertext] = sealed.split('.')
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('Unknown ciphertext format')
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
  decipher.setAAD(Buffer.from(context))
  decipher.setAuthTag(Buffer.from(tag, 'base64url'))
  return Uint8Array.from(Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]))
}

/** A wallet's signing key as its row of the wallets table holds it, sealed with the master key. */
type SealedWalletKey = { readonly id: string; readonly address: Address; readonly encrypted_key: string }

/** Recently used signing accounts of one sandbox, by wallet id. */
export type SigningAccounts = { get(row: SealedWalletKey, masterKey: Uint8Array): PrivateKeyAccount }

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
