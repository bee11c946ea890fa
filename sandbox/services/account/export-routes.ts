import { Hono } from 'hono'
import { bytesToHex } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { onlyFields, readJson, HttpError, ok } from '../../http/exchange.ts'
import { decrypt } from '../../infra/keys.ts'
import { authorize } from '../auth/app-guard.ts'
import { requireStepUp, stepUpSession } from '../step-up/step-up.ts'
import { sealedKeyOf } from './queries.ts'

/**
 * POST /api/v2/account/export-key { stepUpProof } (bearer wallet token) → { privateKey }: the
 * wallet's key, to take to another wallet. Only with a step-up proof for `export-key` from this
 * very session, spent by this call (two calls with one proof: one gets the key). The key is in
 * this answer only: never logged, `no-store`.
 */
export function exportKeyRoutes(deps: Deps) {
  return new Hono<SandboxEnv>().post('/export-key', async (c) => {
    const app = c.get('app')
    const session = stepUpSession(await authorize(c, deps.keys.jwtKey, 'wallet'))
    const body = await readJson(c)
    onlyFields(body, ['stepUpProof'])
    c.header('Cache-Control', 'no-store')
    await requireStepUp(deps, app, session, 'export-key', body.stepUpProof)
    const wallet = await sealedKeyOf(deps.store, session.userId)
    if (!wallet) throw new HttpError(404, 'Wallet not found')
    const key = decrypt(deps.keys.masterKey, wallet.encrypted_key, `wallet-key:${wallet.id}`)
    const privateKey = bytesToHex(key)
    key.fill(0)
    // A damaged signing copy is not handed out as if it were the wallet's key.
    if (privateKeyToAddress(privateKey).toLowerCase() !== wallet.address.toLowerCase()) throw new HttpError(500, 'The stored key does not match this wallet')
    return ok(c, { privateKey })
  })
}
