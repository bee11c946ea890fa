import { Hono, type Context } from 'hono'
import type { Deps, SandboxEnv } from '../../context.ts'
import { HttpError, ok, onlyFields, readJson } from '../../http/exchange.ts'
import { loginResult } from './login-answer.ts'
import { createDummyHash, hashPassword, verifyPassword } from './passwords.ts'
import { clientIp } from '../../http/rate-limit.ts'
import { createPasswordUser, findPasswordUser } from './user-queries.ts'
import { wrongCredentialsMessage } from '../../../sdk/wallet/auth.ts'

const usernamePattern = /^[a-zA-Z0-9._-]{3,32}$/
const minPasswordLength = 8
const maxPasswordLength = 256

/** Username and password sign-in (/api/v2/auth/login, /register); passwords are scrypt hashes. */
export function passwordRoutes(deps: Deps) {
  const dummyHash = createDummyHash()
  const credentials = async (c: Context<SandboxEnv>) => {
    deps.limiter.hit('loginsPerIp', clientIp(c))
    // The switch is the modal's (its username/password form is off unless app config turns it on),
    // so the wallet frame, which calls without the secret, is held to it; a back end holding the
    // app's client secret may still use these calls.
    if (c.req.header('x-client-secret') === undefined && !c.get('app').settings.usernamePassword?.enabled)
      throw new HttpError(403, 'Username and password login is not enabled')
    const body = await readJson(c)
    onlyFields(body, ['username', 'password'])
    const { username, password } = body
    if (typeof username !== 'string' || typeof password !== 'string' || !username || !password)
      throw new HttpError(400, 'Please enter your username and password')
    // Usernames are case-insensitive, like e-mail addresses.
    return { username: username.trim().toLowerCase(), password }
  }
  return new Hono<SandboxEnv>()
    .post('/login', async (c) => {
      const app = c.get('app')
      const { username, password } = await credentials(c)
      // No account has a name or password that register refuses: such a login is wrong before any
      // lookup, hashing or throttle key (a NUL reached PostgreSQL as a 500; a 60 KB name was a key).
      if (!usernamePattern.test(username) || password.length > maxPasswordLength) throw new HttpError(400, wrongCredentialsMessage)
      const throttle = `${username}\u0000${clientIp(c)}`
      deps.limiter.check('failedLoginsPerNameAndIp', throttle)
      const user = await findPasswordUser(deps.store, app, username)
      const valid = await verifyPassword(password, user?.passwordHash ?? (await dummyHash()))
      if (!user || !valid) {
        deps.limiter.hit('failedLoginsPerNameAndIp', throttle)
        // The message the kit keys its fallback on: a login failing with it registers the same credentials.
        throw new HttpError(400, wrongCredentialsMessage)
      }
      return ok(c, await loginResult(deps, app, user.userId, { method: 'password' }))
    })
    .post('/register', async (c) => {
      const app = c.get('app')
      const { username, password } = await credentials(c)
      if (!usernamePattern.test(username)) throw new HttpError(400, 'Username must be 3 to 32 letters, digits, dots, dashes or underscores')
      if (password.length < minPasswordLength) throw new HttpError(400, `Password must be at least ${minPasswordLength} characters`)
      if (password.length > maxPasswordLength) throw new HttpError(400, 'Password is too long')
      const userId = await createPasswordUser(deps.store, app, username, await hashPassword(password))
      return ok(c, await loginResult(deps, app, userId, { method: 'password' }))
    })
}
