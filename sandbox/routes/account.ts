import { Hono } from 'hono'
import type { Deps, SandboxEnv } from '../context.ts'
import { isUniqueViolation } from '../db.ts'
import { HttpError, ok } from '../envelope.ts'
import { issueRefreshToken } from '../sessions.ts'
import { signToken } from '../tokens.ts'
import { optionalDate, readJson, type JsonObject } from '../validate.ts'
import { findWallet, newKey, saveWallet } from '../wallets.ts'
import { authorize } from './bearer.ts'

/** Account routes of the wallet service (/api/v2/account). */
export function accountRoutes(deps: Deps) {
  return new Hono<SandboxEnv>().post('/create', async (c) => {
    const app = c.get('app')
    const { userId } = await authorize(c, deps.keys.jwtKey, 'access')
    const body = await readJson(c)
    // expireDate caps the session (refresh token) lifetime; it cannot extend it past the default.
    const expireDate = optionalDate(body, 'expireDate')
    if (expireDate && expireDate.getTime() <= Date.now()) throw new HttpError(400, 'expireDate must be in the future')
    checkRampable(body)

    const wallet = await createFundedWallet(deps, userId)
    const claims = { userId, appId: app.appId, environment: app.environment }
    return ok(c, {
      walletToken: await signToken(deps.keys.jwtKey, { kind: 'wallet', ...claims }),
      refreshToken: await issueRefreshToken(deps.store, deps.keys.jwtKey, app, userId, expireDate ? { expiresAt: expireDate } : {}),
      secret0: wallet.secret0,
      address: [{ network: 'evm', address: wallet.address }],
    })
  })
}

/** The ramp account is created in a later phase; until then only the field's type is checked. */
function checkRampable(body: JsonObject) {
  const value = body.rampable
  if (value !== undefined && value !== null && typeof value !== 'boolean' && (typeof value !== 'object' || Array.isArray(value)))
    throw new HttpError(400, 'rampable must be a boolean or an object')
}

const alreadyCreated = () => new HttpError(400, 'Wallet already created')

async function createFundedWallet(deps: Deps, userId: string) {
  if (await findWallet(deps.store, userId)) throw alreadyCreated()
  const key = newKey()
  // Funded before it is saved, so a stored wallet always has its test ETH; a lost race only wastes test ETH.
  await deps.faucet.fund(key.address)
  try {
    const { wallet, secret0 } = await saveWallet(deps.store, deps.keys.masterKey, userId, key)
    return { address: wallet.address, secret0 }
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyCreated()
    throw error
  }
}
