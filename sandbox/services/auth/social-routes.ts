import { Hono, type Context } from 'hono'
import { decodeJwt } from 'jose'
import type { Deps, SandboxEnv } from '../../context.ts'
import { HttpError, ok, readJson, onlyFields } from '../../http/exchange.ts'
import { loginResult, sessionCap } from './login-answer.ts'
import { providerNames, redeemCode, type OidcProvider } from '../../emulators/oidc/oidc.ts'
import { clientIp } from '../../http/rate-limit.ts'
import { readTelegramAuth, telegramFields, verifyTelegramAuth } from './telegram-hash.ts'
import { spendCredential } from './spent-credentials.ts'
import { userForIdentity } from './user-queries.ts'

/**
 * Google, Apple and Telegram sign-in (/api/v2/auth/google, /apple, /telegram). Google and Apple take
 * an ID token (`credential`) or an authorisation code of the emulator (`code`, the kit's own flow);
 * either way the ID token's signature, issuer, audience and expiry are verified, and each is used once.
 */
export function socialRoutes(deps: Deps) {
  // The kit spells the session cap `expiredDate` for Google and `expireDate` for Apple: both are taken as sent.
  const oidcLogin = (provider: OidcProvider, capKey: string) => async (c: Context<SandboxEnv>) => {
    const app = c.get('app')
    deps.limiter.hit('loginsPerIp', clientIp(c))
    const body = await readJson(c)
    onlyFields(body, ['credential', 'code', capKey])
    const { credential, code } = body
    const clientId = app.settings[provider].clientId
    if (!app.settings[provider].enabled || !clientId) throw new HttpError(403, `${providerNames[provider]} login is not enabled`)
    if ((credential === undefined) === (code === undefined)) throw new HttpError(400, 'Send either credential (an ID token) or code')
    const given = credential ?? code
    if (typeof given !== 'string' || given.length === 0 || given.length > 8192)
      throw new HttpError(400, `${credential !== undefined ? 'credential' : 'code'} must be a string`)
    const expiresAt = sessionCap(body, capKey)

    let idToken = given
    if (code !== undefined) {
      const grant = await redeemCode(deps.store, provider, given, clientId)
      idToken = await deps.oidc.idToken(provider, clientId, grant.claims, grant.nonce)
    }
    const claims = await deps.oidc.verify(provider, idToken, clientId)
    // The code flow's token is minted here from a single-use code; a token sent in is used once.
    if (credential !== undefined && !(await spendCredential(deps.store, provider, idToken, new Date(Number(decodeJwt(idToken).exp) * 1000))))
      throw new HttpError(401, `${providerNames[provider]} ID token was already used, sign in again`)
    const userId = await userForIdentity(deps.store, app, provider, claims.sub, claims.email)
    return ok(c, await loginResult(deps, app, userId, { expiresAt, method: provider }))
  }

  return new Hono<SandboxEnv>()
    .post('/google', oidcLogin('google', 'expiredDate'))
    .post('/apple', oidcLogin('apple', 'expireDate'))
    .post('/telegram', async (c) => {
      const app = c.get('app')
      deps.limiter.hit('loginsPerIp', clientIp(c))
      const body = await readJson(c)
      onlyFields(body, [...telegramFields, 'botUsername'])
      const botToken = app.secrets.telegramBotToken
      if (!app.settings.telegram.enabled || !botToken) throw new HttpError(403, 'Telegram login is not enabled')
      // The widget names the bot it signed in with (botUsername, beside the widget's data); Telegram usernames ignore case.
      const bot = app.settings.telegram.botUsername
      if (body.botUsername !== undefined && (typeof body.botUsername !== 'string' || !bot || body.botUsername.toLowerCase() !== bot.toLowerCase()))
        throw new HttpError(400, "botUsername is not this app's Telegram bot")
      const data = readTelegramAuth(body)
      verifyTelegramAuth(botToken, data)
      const userId = await userForIdentity(deps.store, app, 'telegram', data.id!)
      return ok(c, await loginResult(deps, app, userId, { method: 'telegram' }))
    })
}
