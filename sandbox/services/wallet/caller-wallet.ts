import type { Context } from 'hono'
import { bytesToHex, type Address } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { authorize } from '../../http/bearer.ts'
import { HttpError } from '../../http/envelope.ts'
import { decrypt } from '../../infra/keys.ts'
import { signToken } from '../auth/jwt.ts'
import { signingRowOf, type SigningRow } from './queries.ts'

export type WalletRef = { id: string; userId: string; address: Address }

async function loadRow(c: Context<SandboxEnv>, deps: Deps): Promise<SigningRow> {
  const { userId } = await authorize(c, deps.keys.jwtKey, 'wallet')
  const row = await signingRowOf(deps.store, userId)
  if (!row) throw new HttpError(404, 'Wallet not found')
  return row
}

/** The caller's wallet for read calls (balances, estimates): a wallet token, no permission needed. */
export async function walletOf(c: Context<SandboxEnv>, deps: Deps): Promise<WalletRef> {
  const row = await loadRow(c, deps)
  return { id: row.id, userId: row.user_id, address: row.address }
}

/**
 * The caller's wallet with its signing key, for signing and sending calls. A wallet without the
 * signing permission is refused with envelope status 407 (SPEC.md section 8) and the link of its
 * permission-accept page. The HTTP status is 403: browsers treat an HTTP 407 from a server that is
 * not a proxy as a network error (Chromium: ERR_UNEXPECTED_PROXY_AUTH), so the widget would never see it.
 */
export async function signerOf(c: Context<SandboxEnv>, deps: Deps): Promise<WalletRef & { account: PrivateKeyAccount }> {
  const row = await loadRow(c, deps)
  if (!row.permission_granted) {
    const app = c.get('app')
    const token = await signToken(deps.keys.jwtKey, { kind: 'permission', userId: row.user_id, appId: app.appId, environment: app.environment })
    throw new HttpError(403, 'Permission needed', {
      code: 407,
      data: { isPermissionGranted: false, acceptPermissionPage: `${deps.origin()}/permission/accept?token=${token}` },
    })
  }
  return { id: row.id, userId: row.user_id, address: row.address, account: deps.signingAccounts.get(row, deps.keys.masterKey) }
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
