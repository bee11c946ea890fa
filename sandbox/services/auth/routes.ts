import { Hono, type Context } from 'hono'
import type { App } from '../app-config/apps.ts'
import type { Deps, SandboxEnv } from '../../context.ts'
import { HttpError, ok, parseEmail, readForm, readJson, requiredString, onlyFields } from '../../http/exchange.ts'
import { deliver, type Channel } from '../../emulators/inbox/queries.ts'
import { loginResult } from './login-answer.ts'
import { createOtp, otpPolicy, verifyOtp } from './otp.ts'
import { clientIp } from '../../http/rate-limit.ts'
import { userForEmail, userForPhone } from './user-queries.ts'

/** The kit's phone rule: digits only, first digit 1-9, 2 to 15 digits, no plus sign. */
const phonePattern = /^[1-9]\d{1,14}$/

/** Login routes of the wallet service (/api/v2/auth): one-time codes here, the others in their own modules. */
export function authRoutes(deps: Deps) {
  const sendCode = async (c: Context<SandboxEnv>, channel: Channel, destination: string) => {
    const app = c.get('app')
    const { verificationToken, code } = await createOtp(deps.store, app, channel, destination, clientIp(c))
    const minutes = otpPolicy.lifetimeMs / 60_000
    await deliver(deps.store, {
      appId: app.appId,
      to: destination,
      channel,
      subject: channel === 'email' ? `Your ${app.name} login code` : `WhatsApp message from ${app.name}`,
      text: `Your ${app.name} login code is ${code}. It expires in ${minutes} minutes.`,
      code,
    })
    return ok(c, { verificationToken })
  }
  const checkCode = async (c: Context<SandboxEnv>, channel: Channel, userFor: (app: App, destination: string) => Promise<string>) => {
    const app = c.get('app')
    deps.limiter.hit('verifiesPerIp', clientIp(c))
    const body = await readJson(c)
    onlyFields(body, ['verificationToken', 'otp'])
    const verificationToken = requiredString(body, 'verificationToken', 200)
    const otp = requiredString(body, 'otp', 64)
    const { destination } = await verifyOtp(deps.store, app, channel, verificationToken, otp)
    return ok(c, await loginResult(deps, app, await userFor(app, destination), { method: channel }))
  }

  return new Hono<SandboxEnv>()
    .post('/login-otp', async (c) => {
      const app = c.get('app')
      deps.limiter.hit('codesPerIp', clientIp(c))
      const form = await readForm(c)
      onlyFields(form, ['email'])
      const email = parseEmail(form.email)
      if (!email) throw new HttpError(400, 'Invalid email')
      if (!app.settings.useEmailLogin) throw new HttpError(403, 'Email login is not enabled')
      return sendCode(c, 'email', email)
    })
    .post('/verify-otp', (c) => checkCode(c, 'email', (app, email) => userForEmail(deps.store, app, email)))
    .post('/login-whatsapp', async (c) => {
      const app = c.get('app')
      deps.limiter.hit('codesPerIp', clientIp(c))
      const body = await readJson(c)
      onlyFields(body, ['phoneNumber'])
      const phone = body.phoneNumber
      if (typeof phone !== 'string' || !phonePattern.test(phone)) throw new HttpError(400, 'Invalid phone number')
      if (!app.settings.whatsapp.enabled) throw new HttpError(403, 'WhatsApp login is not enabled')
      return sendCode(c, 'whatsapp', phone)
    })
    .post('/verify-whatsapp', (c) => checkCode(c, 'whatsapp', (app, phone) => userForPhone(deps.store, app, phone)))
}
