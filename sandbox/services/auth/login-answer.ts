import type { App } from '../app-config/apps.ts'
import type { Deps } from '../../context.ts'
import { HttpError, type JsonObject, optionalDate } from '../../http/exchange.ts'
import { issueRefreshToken, newSessionId, unusedLoginRefreshSeconds } from './sessions.ts'
import { signToken } from './jwt.ts'
import { hasRampAccount } from '../ramp/queries.ts'
import { findWallet } from '../account/queries.ts'
import { recordSignIn, type SignInMethod } from './sign-in-methods.ts'

/**
 * The answer every login method gives once the user is known (verify-otp, verify-whatsapp, google,
 * apple, telegram, login, register: isWalletCreated, refreshToken, and rampableAccessToken and
 * addresses where they apply): a wallet token when the user has a wallet, an access token for account/create when not.
 * `expiresAt` caps the session (the refresh token), never extends it. Without a wallet the refresh
 * token lasts as long as the access token (sessions.ts), unless account/create is called.
 * `familyId` answers within an existing session (a second device of it, which ends with it) instead
 * of starting a new one; a new session records its sign-in `method` (an identity token names it).
 */
export async function loginResult(
  deps: Deps,
  app: App,
  userId: string,
  options: { expiresAt?: Date | undefined } & ({ method: SignInMethod } | { familyId: string }),
) {
  const familyId = 'familyId' in options ? options.familyId : newSessionId()
  if ('method' in options) await recordSignIn(deps.store, familyId, options.method)
  const claims = { userId, appId: app.appId, environment: app.environment, familyId }
  const wallet = await findWallet(deps.store, userId)
  if (!wallet) {
    const soon = new Date(Date.now() + unusedLoginRefreshSeconds * 1000)
    const expiresAt = options.expiresAt && options.expiresAt < soon ? options.expiresAt : soon
    return {
      isWalletCreated: false as const,
      accessToken: await signToken(deps.keys.jwtKey, { kind: 'access', ...claims }),
      refreshToken: await issueRefreshToken(deps.store, deps.keys.jwtKey, app, userId, { familyId, expiresAt }),
    }
  }
  const refreshToken = await issueRefreshToken(deps.store, deps.keys.jwtKey, app, userId, {
    familyId,
    ...(options.expiresAt ? { expiresAt: options.expiresAt } : {}),
  })
  const rampableAccessToken = await rampTokenIfOpened(deps, app, userId)
  return {
    isWalletCreated: true as const,
    walletToken: await signToken(deps.keys.jwtKey, { kind: 'wallet', ...claims }),
    refreshToken,
    ...(rampableAccessToken ? { rampableAccessToken } : {}),
    addresses: [{ network: 'evm', address: wallet.address }],
  }
}

/** A ramp access token for a user who opened a ramp account, so the kit need not open it again. */
async function rampTokenIfOpened(deps: Deps, app: App, userId: string): Promise<string | undefined> {
  if (!(await hasRampAccount(deps.store, userId))) return undefined
  return signToken(deps.keys.jwtKey, { kind: 'ramp', userId, appId: app.appId, environment: app.environment })
}

/** An optional session cap (`expireDate`, or Google's `expiredDate`); a date in the past is refused. */
export function sessionCap(body: JsonObject, key: string): Date | undefined {
  const date = optionalDate(body, key)
  if (date && date.getTime() <= Date.now()) throw new HttpError(400, `${key} must be in the future`)
  return date
}
