import { Hono, type Context } from 'hono'
import { hexToBytes, isHex, type Hex } from 'viem'
import type { Deps, SandboxEnv } from '../../context.ts'
import { isUniqueViolation, type Store } from '../../infra/database/store.ts'
import { HttpError, ok, readJson, type JsonObject, onlyFields } from '../../http/exchange.ts'
import { decrypt, encrypt } from '../../infra/keys.ts'
import { sessionCap } from '../auth/login-answer.ts'
import { isRampEnabled, openRampAccount } from '../ramp/ramp-accounts.ts'
import { combineShares } from './recovery.ts'
import { issueRefreshToken, newSessionId } from '../auth/sessions.ts'
import { recordSignIn } from '../auth/sign-in-methods.ts'
import { familyExpiry } from '../auth/session-queries.ts'
import { signToken, type TokenClaims } from '../auth/jwt.ts'
import { newKey, saveWallet } from './wallet-keys.ts'
import { findWallet, recoveryShareOf, replaceSigningKey } from './queries.ts'
import { authorize } from '../auth/app-guard.ts'

/** Account routes of the wallet service (/api/v2/account). */
export function accountRoutes(deps: Deps) {
  return new Hono<SandboxEnv>()
    .post('/create', async (c) => {
      const app = c.get('app')
      const { userId, familyId = newSessionId() } = await authorize(c, deps.keys.jwtKey, 'access')
      const body = await readJson(c)
      onlyFields(body, ['expireDate', 'rampable'])
      // expireDate caps the session (refresh token) lifetime; it cannot extend it past the default.
      const expireDate = sessionCap(body, 'expireDate')
      const wantsRamp = readRampable(body)
      if (wantsRamp && !isRampEnabled(app)) throw new HttpError(403, 'Rampable is not enabled for this app')

      const wallet = await createFundedWallet(deps, userId)
      const dry = wallet.dryChains.length ? dryFaucet(wallet.dryChains) : undefined
      if (dry) console.warn(`[sandbox] ${wallet.address}: ${dry.message}`)
      // The wallet's session continues the login's: a logout before or after ends both.
      const claims = { userId, appId: app.appId, environment: app.environment, familyId }
      const refreshToken = await issueRefreshToken(deps.store, deps.keys.jwtKey, app, userId, { familyId, ...(expireDate ? { expiresAt: expireDate } : {}) })
      // The login's own refresh token is of this session too: the cap holds it as well.
      if (expireDate)
        await deps.store.query('UPDATE refresh_tokens SET expires_at = LEAST(expires_at, $2) WHERE family_id = $1', [familyId, expireDate.toISOString()])
      return ok(c, {
        walletToken: await signToken(deps.keys.jwtKey, { kind: 'wallet', ...claims }),
        refreshToken,
        secret0: wallet.secret0,
        address: [{ network: 'evm', address: wallet.address }],
        ...(wantsRamp ? { rampableAccessToken: await openRampAccount(deps, app, userId) } : {}),
        // Only when the faucet could not fund the wallet somewhere: a client that does not know it ignores it.
        ...(dry ? { faucet: dry } : {}),
      })
    })
    .post('/recover', async (c) => {
      const app = c.get('app')
      const { userId, familyId: before } = await walletOrAccessToken(c, deps)
      deps.limiter.hit('recoveriesPerUser', userId)
      const secret0 = await readRecoverySecret(c)
      // The session it replaces keeps its say: a cap the host set (expireDate) is carried over.
      const cap = before ? await familyExpiry(deps.store, before) : undefined
      const restored = await restoreWallet(deps, userId, secret0)
      // …and ends, before the new one starts: of two recoveries raced from one session only the
      // one that ends it gets a session. The frame holds the new one from now on.
      if (before && !(await endSessionOnce(deps.store, before))) throw new HttpError(401, 'Session revoked')
      const familyId = newSessionId()
      await recordSignIn(deps.store, familyId, 'recovery')
      const claims = { userId, appId: app.appId, environment: app.environment, familyId }
      const refreshToken = await issueRefreshToken(deps.store, deps.keys.jwtKey, app, userId, { familyId, ...(cap ? { expiresAt: cap } : {}) })
      return ok(c, {
        walletToken: await signToken(deps.keys.jwtKey, { kind: 'wallet', ...claims }),
        refreshToken,
        address: [{ network: 'evm', address: restored }],
      })
    })
    .post('/rampable/create', async (c) => {
      const app = c.get('app')
      const { userId } = await authorize(c, deps.keys.jwtKey, 'wallet')
      onlyFields(await readJson(c), [])
      if (!(await findWallet(deps.store, userId))) throw new HttpError(404, 'Wallet not found')
      return ok(c, { rampableAccessToken: await openRampAccount(deps, app, userId) })
    })
}

/** `rampable`: true, or the kit's ramp settings object, asks for a ramp account too. */
function readRampable(body: JsonObject): boolean {
  const value = body.rampable
  if (value === undefined || value === null || value === false) return false
  if (value === true || (typeof value === 'object' && !Array.isArray(value))) return true
  throw new HttpError(400, 'rampable must be a boolean or an object')
}

const alreadyCreated = () => new HttpError(400, 'Wallet already created')

/** account/create's note when the faucet kept its floor on some chains (services/chain/faucet.ts). */
const dryFaucet = (dryChains: number[]) => ({
  dryChains,
  message: `The sandbox faucet is dry on chain${dryChains.length > 1 ? 's' : ''} ${dryChains.join(', ')}: the wallet was created without test funds there`,
})

async function createFundedWallet(deps: Deps, userId: string) {
  if (await findWallet(deps.store, userId)) throw alreadyCreated()
  const key = newKey()
  // Funded before it is saved, so a stored wallet has its test ETH wherever the faucet is not dry
  // (dryChains: the faucet keeps its floor, the wallet is created unfunded there); a lost race only wastes test ETH.
  const { dryChains } = await deps.faucet.fund(key.address)
  try {
    const { wallet, secret0 } = await saveWallet(deps.store, deps.keys.masterKey, userId, key)
    return { address: wallet.address, secret0, dryChains }
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyCreated()
    throw error
  }
}

/**
 * Ends a session for the one caller that ends it: false when its refresh tokens were all revoked
 * already (another call got there first). A login's family with no refresh token yet counts as ended here.
 */
async function endSessionOnce(store: Store, familyId: string): Promise<boolean> {
  const { rows } = await store.query<{ ended: number; known: boolean }>(
    `WITH ended AS (UPDATE refresh_tokens SET revoked_at = now() WHERE family_id = $1 AND revoked_at IS NULL RETURNING 1)
     SELECT (SELECT count(*) FROM ended)::int AS ended, EXISTS (SELECT 1 FROM refresh_tokens WHERE family_id = $1) AS known`,
    [familyId],
  )
  return rows[0]!.ended > 0 || !rows[0]!.known
}

/** Recovery works from a fresh login (access token) or a live session (wallet token). */
async function walletOrAccessToken(c: Context<SandboxEnv>, deps: Deps): Promise<TokenClaims> {
  try {
    return await authorize(c, deps.keys.jwtKey, 'wallet')
  } catch (error) {
    if (!(error instanceof HttpError) || error.message === 'Missing bearer token') throw error
    return authorize(c, deps.keys.jwtKey, 'access')
  }
}

/**
 * secret0 from the form: a `secret0` field, or the downloaded recovery file as `file` (its text
 * holds the 0x-hex secret, possibly with other lines around it).
 */
async function readRecoverySecret(c: Context<SandboxEnv>): Promise<Hex> {
  const type = c.req.header('content-type') ?? ''
  if (!type.startsWith('multipart/form-data') && !type.startsWith('application/x-www-form-urlencoded'))
    throw new HttpError(400, 'Body must be form data with secret0 or the recovery file')
  const form = await c.req.parseBody().catch(() => {
    throw new HttpError(400, 'Malformed form body')
  })
  onlyFields(form, ['secret0', 'file'])
  const file = form.file
  const text = typeof form.secret0 === 'string' ? form.secret0 : file instanceof File && file.size <= 4096 ? await file.text() : undefined
  if (text === undefined) throw new HttpError(400, 'secret0 is required')
  // Not a whole-value check (viem's isHex): the secret is searched for inside the file's text, as
  // the first 0x and 64 hex digits that no further digit follows.
  const found = /0x[0-9a-fA-F]{64}(?![0-9a-fA-F])/.exec(text)?.[0]
  if (!found || !isHex(found)) throw new HttpError(400, 'secret0 must be the 0x-hex recovery secret')
  return found
}

/**
 * Rebuilds the key from secret0 and the server's share; only a secret that yields the wallet's own
 * address passes. The signing copy is re-encrypted from the rebuilt key, restoring it if damaged.
 */
async function restoreWallet(deps: Deps, userId: string, secret0: Hex) {
  const wallet = await recoveryShareOf(deps.store, userId)
  if (!wallet) throw new HttpError(404, 'Wallet not found')
  const share = decrypt(deps.keys.masterKey, wallet.encrypted_recovery_share, `recovery-share:${wallet.id}`)
  const privateKey = combineShares(secret0, share, wallet.address)
  if (!privateKey) throw new HttpError(400, 'Recovery secret does not match this wallet')
  const sealed = encrypt(deps.keys.masterKey, hexToBytes(privateKey), `wallet-key:${wallet.id}`)
  await replaceSigningKey(deps.store, wallet.id, sealed)
  return wallet.address
}
