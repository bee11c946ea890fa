import { type CallOptions, type ClientConfig, type Context, toContext } from '../config.ts'
import { SdkError, messages } from '../errors.ts'
import { parseLoose, readText, requestRaw, unwrap, walletHeaders, walletRequest } from '../http.ts'
import { createRampableAccount, evmAddress } from './account.ts'
import type { LoginResult, VerificationTokenResult } from './types.ts'

export type TelegramAuthData = {
  id: number | string
  first_name?: string
  last_name?: string
  username?: string
  photo_url?: string
  auth_date: number | string
  hash: string
  [key: string]: unknown
}

/** The message of a failed username login that the modal answers by registering the same credentials. */
export const wrongCredentialsMessage = 'username or password is incorrect'

/** The message of a register whose username someone already has. */
export const usernameTakenMessage = 'Username is already taken'

export type AuthClient = {
  /** Sends the 6-digit code by e-mail (form-encoded). */
  loginOtp(params: { email: string }, options?: CallOptions): Promise<VerificationTokenResult>
  verifyOtp(params: { verificationToken: string; otp: string }, options?: CallOptions): Promise<LoginResult>
  google(params: { credential: string; expiredDate?: string }, options?: CallOptions): Promise<LoginResult>
  /** The kit's own social flow: exchanges an authorisation code; a non-OK answer is 'Failed to verify google'. */
  googleCode(params: { code: string }, options?: CallOptions): Promise<LoginResult>
  apple(params: { credential: string; expireDate?: string }, options?: CallOptions): Promise<LoginResult>
  /** The login widget's fields; `botUsername` names the app's bot they were signed for (the widget sends it with them). */
  telegram(params: TelegramAuthData & { botUsername?: string }, options?: CallOptions): Promise<LoginResult>
  login(params: { username: string; password: string }, options?: CallOptions): Promise<LoginResult>
  register(params: { username: string; password: string }, options?: CallOptions): Promise<LoginResult>
  /**
   * The modal's username sign-in: a login refused as 'username or password is
   * incorrect' registers the same credentials; when that name is taken, the login's error stands.
   */
  loginOrRegister(params: { username: string; password: string }, options?: CallOptions): Promise<LoginResult>
  loginWhatsapp(params: { phoneNumber: string }, options?: CallOptions): Promise<VerificationTokenResult>
  verifyWhatsapp(params: { verificationToken: string; otp: string }, options?: CallOptions): Promise<LoginResult>
  /**
   * The secure window hands its signed-in user to the wallet frame that opened it: the service
   * starts a new session for the same user (its own refresh family, so neither side's refresh
   * spends the other's token) and delivers it into the popup channel `channel`, never to the caller.
   */
  handoff(params: { channel: string; walletToken?: string }, options?: CallOptions): Promise<{ handedOff: boolean }>
  /** Keeps a login obtained elsewhere (the handoff's session) exactly as a login made here. */
  adopt(result: LoginResult, options?: CallOptions): Promise<LoginResult>
}

export function createAuthClient(config: ClientConfig | Context = {}): AuthClient {
  const ctx = toContext(config)
  const json = (path: string, value: object, options?: CallOptions) =>
    walletRequest<LoginResult>(ctx, { path, body: { kind: 'json', value } }, options).then((result) => completeLogin(ctx, result, options))
  return {
    loginOtp: ({ email }, options) => walletRequest(ctx, { path: '/auth/login-otp', body: { kind: 'form', value: { email } } }, options),
    verifyOtp: (params, options) => json('/auth/verify-otp', params, options),
    google: (params, options) => json('/auth/google', params, options),
    googleCode: (params, options) => googleCode(ctx, params.code, options),
    apple: (params, options) => json('/auth/apple', params, options),
    telegram: (params, options) => json('/auth/telegram', params, options),
    login: (params, options) => json('/auth/login', params, options),
    register: (params, options) => json('/auth/register', params, options),
    loginOrRegister: (params, options) =>
      json('/auth/login', params, options).catch((error: unknown) => {
        if (!(error instanceof SdkError) || error.message !== wrongCredentialsMessage) throw error
        // A taken name means a wrong password for an existing account: the login's answer stands,
        // so the form says what the user got wrong, not that someone has that username.
        return json('/auth/register', params, options).catch((refused: unknown) => {
          throw refused instanceof SdkError && refused.message === usernameTakenMessage ? error : refused
        })
      }),
    loginWhatsapp: (params, options) => walletRequest(ctx, { path: '/auth/login-whatsapp', body: { kind: 'json', value: params } }, options),
    verifyWhatsapp: (params, options) => json('/auth/verify-whatsapp', params, options),
    handoff: ({ channel, walletToken }, options) =>
      walletRequest(ctx, { path: '/auth/handoff', body: { kind: 'json', value: { channel } }, bearer: walletToken ?? ctx.tokens.get().walletToken }, options),
    adopt: (result, options) => completeLogin(ctx, result, options),
  }
}

async function googleCode(ctx: Context, code: string, options: CallOptions = {}): Promise<LoginResult> {
  const response = await requestRaw({
    fetch: ctx.fetch,
    baseUrl: ctx.baseUrls.wallet,
    method: 'POST',
    path: '/auth/google',
    headers: walletHeaders(ctx, undefined, options),
    body: { kind: 'json', value: { code } },
    ...(options.signal ? { signal: options.signal } : {}),
  })
  const text = await readText(response, options.signal)
  const body = parseLoose(text)
  if (!response.ok) throw new SdkError(messages.googleFailed, { code: String(response.status), details: body })
  return completeLogin(ctx, unwrap(body) as LoginResult, options)
}

/**
 * Service-level login: keep the session of a user who has a wallet and,
 * when ramp is configured and no ramp token came back, open the ramp account now.
 */
async function completeLogin(ctx: Context, result: LoginResult, options?: CallOptions): Promise<LoginResult> {
  if (!result?.isWalletCreated || !result.walletToken) return result
  ctx.tokens.set({
    walletToken: result.walletToken,
    refreshToken: result.refreshToken,
    address: evmAddress(result.addresses),
    ...(result.rampableAccessToken ? { rampAccessToken: result.rampableAccessToken } : {}),
  })
  if (!ctx.config.rampable || result.rampableAccessToken) return result
  const { rampableAccessToken } = await createRampableAccount(ctx, result.walletToken, options)
  return { ...result, rampableAccessToken }
}
