import { Hono } from 'hono'
import type { App } from '../apps.ts'
import type { Deps, SandboxEnv } from '../context.ts'
import { HttpError, ok } from '../envelope.ts'
import { deliver } from '../inbox.ts'
import { createOtp, otpPolicy, verifyOtp } from '../otp.ts'
import { issueRefreshToken } from '../sessions.ts'
import { signToken } from '../tokens.ts'
import { parseEmail, readForm, readJson, requiredString } from '../validate.ts'
import { findWallet, userForEmail } from '../wallets.ts'

/** Login routes of the wallet service (/api/v2/auth). Social and messaging-app logins slot in here later. */
export function authRoutes(deps: Deps) {
  return new Hono<SandboxEnv>()
    .post('/login-otp', async (c) => {
      const app = c.get('app')
      const email = parseEmail((await readForm(c)).email)
      if (!email) throw new HttpError(400, 'Invalid email')
      if (!app.settings.useEmailLogin) throw new HttpError(403, 'Email login is not enabled')
      const { verificationToken, code } = await createOtp(deps.store, app, 'email', email)
      await deliver(deps.store, {
        appId: app.appId,
        to: email,
        channel: 'email',
        subject: `Your ${app.name} login code`,
        text: `Your ${app.name} login code is ${code}. It expires in ${otpPolicy.lifetimeMs / 60_000} minutes.`,
        code,
      })
      return ok(c, { verificationToken })
    })
    .post('/verify-otp', async (c) => {
      const app = c.get('app')
      const body = await readJson(c)
      const verificationToken = requiredString(body, 'verificationToken', 200)
      const otp = requiredString(body, 'otp', 64)
      const { destination } = await verifyOtp(deps.store, app, verificationToken, otp)
      return ok(c, await loginResult(deps, app, await userForEmail(deps.store, app, destination)))
    })
}

/** The answer every login method gives once the user is known (PROTOCOL.md "Auth answers"). */
export async function loginResult(deps: Deps, app: App, userId: string) {
  const claims = { userId, appId: app.appId, environment: app.environment }
  const refreshToken = await issueRefreshToken(deps.store, deps.keys.jwtKey, app, userId)
  const wallet = await findWallet(deps.store, userId)
  if (!wallet) {
    return { isWalletCreated: false as const, accessToken: await signToken(deps.keys.jwtKey, { kind: 'access', ...claims }), refreshToken }
  }
  return {
    isWalletCreated: true as const,
    walletToken: await signToken(deps.keys.jwtKey, { kind: 'wallet', ...claims }),
    refreshToken,
    addresses: [{ network: 'evm', address: wallet.address }],
  }
}
