import type { Context } from 'hono'
import type { Address } from 'viem'
import type { PrivateKeyAccount } from 'viem/accounts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { authorize } from '../auth/app-guard.ts'
import { HttpError } from '../../http/envelope.ts'
import { signToken } from '../auth/jwt.ts'
import { signingRowOf, type SigningRow } from './signing-accounts.ts'

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
 * signing permission is refused with envelope status 407 and the link of its
 * permission-accept page (on a 407 the kit opens its need-permission modal). The HTTP status is 403: browsers treat an HTTP 407 from a server that is
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
