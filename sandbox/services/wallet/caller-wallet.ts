import { randomUUID } from 'node:crypto'
import type { Context } from 'hono'
import type { Address } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { HttpError } from '../../http/exchange.ts'
import { cachedRow, type Store } from '../../infra/database/store.ts'
import { authorize } from '../auth/app-guard.ts'
import { signToken } from '../auth/jwt.ts'

// The caller's wallet as the wallet routes reach it: the bearer's user, then its row of the wallets
// table (the sealed key and whether it may sign), then, for the signing calls, the account opened
// from that row (deps.signingAccounts, infra/keys.ts). The row is read on every signing call and kept
// in memory (rows are created by the account service, account/queries.ts; the permission switches
// are in ./queries.ts).

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

export type WalletRef = { id: string; userId: string; address: Address }

async function loadRow(c: Context<SandboxEnv>, deps: Deps): Promise<{ row: SigningRow; familyId: string | undefined }> {
  const { userId, familyId } = await authorize(c, deps.keys.jwtKey, 'wallet')
  const row = await signingRowOf(deps.store, userId)
  if (!row) throw new HttpError(404, 'Wallet not found')
  return { row, familyId }
}

/** The caller's wallet for read calls (balances, estimates): a wallet token, no permission needed. */
export async function walletOf(c: Context<SandboxEnv>, deps: Deps): Promise<WalletRef> {
  const { row } = await loadRow(c, deps)
  return { id: row.id, userId: row.user_id, address: row.address }
}

/**
 * The caller's wallet with its signing key, for signing and sending calls. A wallet without the
 * signing permission is refused with envelope status 407 and the link of its
 * permission-accept page (on a 407 the kit opens its need-permission modal). The HTTP status is 403: browsers treat an HTTP 407 from a server that is
 * not a proxy as a network error (Chromium: ERR_UNEXPECTED_PROXY_AUTH), so the widget would never see it.
 * The page's token names the caller's session (the step-up that grants is that session's) and a
 * grant id of its own (the step-up's proof is bound to it).
 */
export async function signerOf(c: Context<SandboxEnv>, deps: Deps): Promise<WalletRef & { account: PrivateKeyAccount }> {
  const { row, familyId } = await loadRow(c, deps)
  if (!row.permission_granted) {
    const app = c.get('app')
    const token = await signToken(deps.keys.jwtKey, {
      kind: 'permission',
      userId: row.user_id,
      appId: app.appId,
      environment: app.environment,
      familyId,
      tokenId: randomUUID(),
    })
    throw new HttpError(403, 'Permission needed', {
      code: 407,
      data: { isPermissionGranted: false, acceptPermissionPage: `${deps.origin()}/permission/accept?token=${token}` },
    })
  }
  return { id: row.id, userId: row.user_id, address: row.address, account: deps.signingAccounts.get(row, deps.keys.masterKey) }
}
